package dev.gradcheck.report;

import dev.gradcheck.result.BlockJacobians;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;

/**
 * {@code --format html}: the run as one self-contained page (no script, no external file) for a CI artifact a person
 * opens in a browser: the summary, the table of checks with their detail lines, and for every block that came back
 * with its matrices (a failing block under {@code check}, every block under {@code explain --html}) the numerical,
 * analytic and difference Jacobians as SVG heat maps ({@link BlockPicture}; hover a cell for its value).
 *
 * <p>Times are inside {@code <span class="time">} so a golden-file test can mask them.
 */
final class HtmlRenderer implements ReportRenderer {

    private static final int MAP_PIXELS = 320;
    private static final String LEGEND = "Blue negative, red positive, white zero (both sides on one scale); the"
            + " difference from white to red on its own. Outlined: a mismatching entry; grey: masked or at a kink."
            + " Hover a cell for its value.";

    @Override
    public void render(List<CheckResult> results, Summary summary, ReportContext ctx, Writer out) throws IOException {
        out.write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<title>gradcheck report</title>\n<style>\n" + STYLE + "</style>\n</head>\n<body>\n");
        out.write("<h1>gradcheck report</h1>\n");
        out.write("<p class=\"summary " + (summary.exitCode() == 0 ? "ok" : "bad") + "\">"
                + esc(SummaryLine.of(summary, ctx)) + "</p>\n");
        out.write("<p class=\"meta\">gradcheck " + esc(ctx.toolVersion())
                + (ctx.run().startedAt() == null ? "" : ", started <span class=\"time\">"
                        + esc(Timestamps.json(ctx.run().startedAt())) + "</span>")
                + ", <span class=\"time\">" + esc(Numbers.seconds(summary.seconds())) + "</span></p>\n");
        table(results, out);
        boolean any = false;
        for (int i = 0; i < results.size(); i++) {
            CheckResult r = results.get(i);
            for (BlockPicture p : BlockPicture.of(r.gradients())) {
                if (!any) {
                    out.write("<h2>Jacobian blocks</h2>\n");
                    any = true;
                }
                block(i, r, p, out);
            }
        }
        out.write("</body>\n</html>\n");
    }

    private static void table(List<CheckResult> results, Writer out) throws IOException {
        out.write("<table>\n<thead><tr><th>spec</th><th>status</th><th>op</th><th>dtype</th><th>worst block</th>"
                + "<th>max rel err</th><th>time</th></tr></thead>\n<tbody>\n");
        for (int i = 0; i < results.size(); i++) {
            CheckResult r = results.get(i);
            GradientResult worst = r.gradients() == null || r.gradients().isEmpty() ? null : r.worstGradient();
            out.write("<tr id=\"check-" + i + "\" class=\"" + statusClass(r.status()) + "\"><td title=\""
                    + esc(r.location()) + "\">" + esc(r.name()) + "</td><td class=\"status\">"
                    + esc(StatusLabel.of(r.status()).strip()) + "</td><td>" + esc(r.op()) + "</td><td>"
                    + esc(r.dtype()) + "</td><td>" + esc(GradientText.name(worst)) + "</td><td class=\"num\">"
                    + (worst == null || worst.kind().isSanityCheck() ? "" : esc(Numbers.sci(worst.maxRelError())))
                    + "</td><td class=\"num\"><span class=\"time\">" + esc(Numbers.seconds(r.seconds()))
                    + "</span></td></tr>\n");
            List<String> details = DetailLines.of(r);
            if (!details.isEmpty()) {
                out.write("<tr class=\"details\"><td colspan=\"7\"><pre>");
                out.write(esc(String.join("\n", details)));
                out.write("</pre></td></tr>\n");
            }
        }
        out.write("</tbody>\n</table>\n");
    }

    private static void block(int index, CheckResult r, BlockPicture p, Writer out) throws IOException {
        out.write("<section class=\"block\">\n<h3><a href=\"#check-" + index + "\">" + esc(r.name()) + "</a> "
                + esc(p.name()) + "</h3>\n<pre>" + esc(String.join("\n", p.description(r.tolerance())))
                + "</pre>\n<p class=\"axes\">" + esc(p.axes()) + "</p>\n<div class=\"maps\">\n");
        for (BlockPicture.Grid g : List.of(p.numerical(), p.analytic(), p.difference())) {
            svg(p, g, out);
        }
        out.write("</div>\n<p class=\"axes\">" + esc(LEGEND) + "</p>\n</section>\n");
    }

    private static void svg(BlockPicture p, BlockPicture.Grid g, Writer out) throws IOException {
        int cell = Math.max(4, Math.min(24, MAP_PIXELS / Math.max(p.rows(), p.cols())));
        int w = cell * p.cols();
        int h = cell * p.rows();
        out.write("<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w + "\" height=\"" + h
                + "\" viewBox=\"0 0 " + w + " " + h + "\" role=\"img\"><title>" + esc(g.title()) + "</title>\n");
        for (int r = 0; r < p.rows(); r++) {
            for (int c = 0; c < p.cols(); c++) {
                double level = g.levels()[r][c];
                char mark = p.mark(r, c);
                int[] rgb = BlockPicture.rgb(g, level);
                boolean masked = mark == BlockJacobians.MASKED || mark == BlockJacobians.KINK;
                String fill = !g.signed() && masked ? "#cccccc"
                        : String.format(Locale.ROOT, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
                String stroke = !g.signed() && mark == BlockJacobians.MISMATCH
                        ? " stroke=\"#000\" stroke-width=\"" + Math.max(1, cell / 6) + "\"" : "";
                out.write("<rect x=\"" + c * cell + "\" y=\"" + r * cell + "\" width=\"" + cell + "\" height=\""
                        + cell + "\" fill=\"" + fill + "\"" + stroke + "><title>"
                        + String.format(Locale.ROOT, "cell %d,%d: %.3e%s", r, c, level * g.scale(), markName(mark))
                        + "</title></rect>\n");
            }
        }
        out.write("</svg><figcaption>" + esc(g.title()) + "<br>" + (g.signed() ? "scale &#177;" : "scale 0 to ")
                + String.format(Locale.ROOT, "%.2e", g.scale()) + "</figcaption></figure>\n");
    }

    private static String markName(char mark) {
        return switch (mark) {
            case BlockJacobians.MISMATCH -> " (mismatch)";
            case BlockJacobians.MASKED -> " (masked)";
            case BlockJacobians.KINK -> " (kink)";
            default -> "";
        };
    }

    private static String statusClass(Status status) {
        return switch (status) {
            case PASSED, EXPECTED_FAIL, EXPECTED_ERROR, SKIPPED -> "ok";
            default -> "bad";
        };
    }

    /**
     * Text for the page: markup characters as entities, and what XML and HTML cannot hold (controls, lone
     * surrogates, U+FFFE) as visible escapes ({@link SafeText#forXml}), so the page stays well-formed and a
     * control character in a name shows where it is.
     */
    static String esc(String s) {
        if (s == null) {
            return "";
        }
        String safe = SafeText.forXml(s);
        StringBuilder b = new StringBuilder(safe.length());
        for (char ch : safe.toCharArray()) {
            switch (ch) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }

    private static final String STYLE = """
            body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
            table { border-collapse: collapse; font-size: 0.9em; }
            th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; }
            tr.bad td.status { color: #b00; font-weight: bold; }
            tr.ok td.status { color: #070; }
            tr.details td { border-bottom: 1px solid #ddd; }
            pre { margin: 0.2em 0; white-space: pre-wrap; }
            .summary.ok { color: #070; } .summary.bad { color: #b00; }
            .summary { font-weight: bold; } .meta, .axes { color: #666; font-size: 0.9em; }
            .maps { display: flex; flex-wrap: wrap; gap: 1.5em; }
            figure { margin: 0; } figcaption { font-size: 0.85em; color: #444; }
            svg { border: 1px solid #999; shape-rendering: crispEdges; }
            section.block { margin-bottom: 2em; }
            """;
}
