package dev.gradcheck.report;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --format html}: the run as one self-contained page (no script, no external file) for a CI artifact a person
 * opens in a browser: the summary, a filter by status, the table of checks with the unexpected results first, each
 * spec linked to its file and line, and for every block that came back with its matrices (a failing block under
 * {@code check}, every block under {@code explain --html}) the numerical, analytic and difference Jacobians as SVG
 * heat maps with their indices and colour scales ({@link HeatMapSvg}; hover a cell for its value).
 *
 * <p>The filter is radio buttons and CSS alone (a checked button hides the rows of other statuses through the
 * sibling selector), so the page keeps working where scripts are blocked, as CI servers' artifact viewers often
 * block them. Times are inside {@code <span class="time">} so a golden-file test can mask them.
 */
final class HtmlRenderer implements ReportRenderer {

    private static final String LEGEND = "Blue negative, red positive, white zero (both sides on one scale); the"
            + " difference from white to red on its own. Outlined: a mismatching entry; grey: masked or at a kink."
            + " Hover a cell for its value.";
    private static final String UNEXPECTED = "unexpected";

    @Override
    public void render(List<CheckResult> results, Summary summary, ReportContext ctx, Writer out) throws IOException {
        out.write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<title>gradcheck report</title>\n<style>\n" + STYLE + filterStyle() + "</style>\n</head>\n<body>\n");
        out.write("<h1>gradcheck report</h1>\n");
        out.write("<p class=\"summary " + (summary.exitCode() == 0 ? "ok" : "bad") + "\">"
                + esc(SummaryLine.of(summary, ctx)) + "</p>\n");
        out.write("<p class=\"meta\">gradcheck " + esc(ctx.toolVersion())
                + (ctx.run().startedAt() == null ? "" : ", started <span class=\"time\">"
                        + esc(Timestamps.json(ctx.run().startedAt())) + "</span>")
                + ", <span class=\"time\">" + esc(Numbers.seconds(summary.seconds())) + "</span></p>\n");
        filter(results, out);
        table(results, ctx, out);
        boolean any = false;
        for (int i = 0; i < results.size(); i++) {
            CheckResult r = results.get(i);
            List<BlockPicture> pictures = BlockPicture.of(r.gradients());
            for (int b = 0; b < pictures.size(); b++) {
                if (!any) {
                    out.write("<h2>Jacobian blocks</h2>\n");
                    any = true;
                }
                block(i + "-" + b, i, r, pictures.get(b), out);
            }
        }
        undrawn(results, ctx, out);
        out.write("</body>\n</html>\n");
    }

    /** The failing blocks that came back without matrices, each linked to its row, and why (UndrawnBlocks). */
    private static void undrawn(List<CheckResult> results, ReportContext ctx, Writer out) throws IOException {
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < results.size(); i++) {
            for (GradientResult g : UndrawnBlocks.of(results.get(i))) {
                items.append("<li><a href=\"#check-").append(i).append("\">").append(esc(results.get(i).name()))
                        .append("</a> ").append(esc(GradientText.name(g))).append("</li>\n");
            }
        }
        if (!items.isEmpty()) {
            out.write("<h2>Failing blocks not drawn</h2>\n<p class=\"meta\">" + esc(UndrawnBlocks.why(ctx))
                    + ":</p>\n<ul class=\"undrawn\">\n" + items + "</ul>\n");
        }
    }

    /**
     * One radio button per choice, siblings of the table (the CSS hides rows through {@code :checked ~ table}):
     * every check, the unexpected ones, then each status present, with their counts.
     */
    private static void filter(List<CheckResult> results, Writer out) throws IOException {
        Map<Status, Integer> counts = new EnumMap<>(Status.class);
        results.forEach(r -> counts.merge(r.status(), 1, Integer::sum));
        long unexpected = results.stream().filter(r -> r.status().needsAttention()).count();
        StringBuilder b = new StringBuilder("<span class=\"filter\">Show:</span>\n");
        b.append(choice("all", "all (" + results.size() + ")", true));
        b.append(choice(UNEXPECTED, "unexpected (" + unexpected + ")", false));
        for (Map.Entry<Status, Integer> e : counts.entrySet()) {
            b.append(choice(e.getKey().jsonName(), StatusLabel.of(e.getKey()) + " (" + e.getValue() + ")", false));
        }
        out.write(b.toString());
    }

    private static String choice(String name, String label, boolean checked) {
        // self-closed, as HTML allows a void element to be, so the page still parses as XML
        return "<input type=\"radio\" name=\"show\" id=\"show-" + name + "\""
                + (checked ? " checked=\"checked\"" : "") + "/><label for=\"show-" + name + "\">" + esc(label) + "</label>\n";
    }

    /** A checked choice hides every row of the table but its own status's (or the unexpected ones). */
    private static String filterStyle() {
        StringBuilder b = new StringBuilder("#show-" + UNEXPECTED + ":checked ~ table tbody tr:not(." + UNEXPECTED
                + ") { display: none; }\n");
        for (Status s : Status.values()) {
            b.append("#show-").append(s.jsonName()).append(":checked ~ table tbody tr:not(.st-").append(s.jsonName())
                    .append(") { display: none; }\n");
        }
        return b.toString();
    }

    /** The checks that need attention first, each group in run order; a row keeps its run index as its id. */
    private static void table(List<CheckResult> results, ReportContext ctx, Writer out) throws IOException {
        out.write("<table>\n<thead><tr><th>status</th><th>spec</th><th>location</th><th>op</th><th>dtype</th>"
                + "<th>worst block</th><th>max rel err</th><th>time</th></tr></thead>\n<tbody>\n");
        List<Integer> order = new ArrayList<>();
        for (boolean attention : new boolean[] {true, false}) {
            for (int i = 0; i < results.size(); i++) {
                if (results.get(i).status().needsAttention() == attention) {
                    order.add(i);
                }
            }
        }
        for (int i : order) {
            row(i, results.get(i), ctx, out);
        }
        out.write("</tbody>\n</table>\n");
    }

    private static void row(int index, CheckResult r, ReportContext ctx, Writer out) throws IOException {
        GradientResult worst = r.gradients() == null || r.gradients().isEmpty() ? null : r.worstGradient();
        String classes = "st-" + r.status().jsonName() + " " + statusClass(r.status())
                + (r.status().needsAttention() ? " " + UNEXPECTED : "");
        out.write("<tr id=\"check-" + index + "\" class=\"" + classes + "\"><td class=\"status\">"
                + esc(StatusLabel.of(r.status()).strip()) + "</td><td class=\"spec\">" + esc(r.name())
                + "</td><td class=\"spec\">" + link(r, ctx) + "</td><td>" + esc(r.op()) + "</td><td>" + esc(r.dtype()) + "</td><td>"
                + esc(GradientText.name(worst)) + "</td><td class=\"num\">"
                + (worst == null || worst.kind().isSanityCheck() ? "" : esc(Numbers.sci(worst.maxRelError())))
                + "</td><td class=\"num\"><span class=\"time\">" + esc(Numbers.seconds(r.seconds()))
                + "</span></td></tr>\n");
        List<String> details = DetailLines.of(r);
        if (!details.isEmpty()) {
            out.write("<tr class=\"details " + classes + "\"><td colspan=\"8\"><pre>");
            out.write(esc(String.join("\n", details)));
            out.write("</pre></td></tr>\n");
        }
    }

    /**
     * The spec's {@code file:line:col}, linked to its file at that line ({@code #L12}, the anchor source viewers
     * such as GitHub's use): relative to the page through {@link ReportContext#linkBase}, an absolute path as a
     * {@code file:} URL.
     */
    private static String link(CheckResult r, ReportContext ctx) {
        SpecPlace place = SpecPlace.of(r.location());
        if (place.file().isEmpty()) {
            return "";
        }
        String path = place.file().replace('\\', '/');
        String href = (path.startsWith("/") ? "file://" : ctx.linkBase()) + uriPath(path)
                + (place.line() == null ? "" : "#L" + place.line());
        return "<a href=\"" + esc(href) + "\">" + esc(r.location()) + "</a>";
    }

    /** A path as a URL's path: every byte of its UTF-8 but letters, digits, {@code -._~/} percent-encoded. */
    private static String uriPath(String path) {
        StringBuilder b = new StringBuilder();
        for (byte x : path.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            boolean plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "-._~/".indexOf(c) >= 0;
            b.append(plain ? String.valueOf((char) c) : String.format("%%%02X", c));
        }
        return b.toString();
    }

    private static void block(String id, int index, CheckResult r, BlockPicture p, Writer out) throws IOException {
        out.write("<section class=\"block\">\n<h3><a href=\"#check-" + index + "\">" + esc(r.name()) + "</a> "
                + esc(p.name()) + "</h3>\n<pre>" + esc(String.join("\n", p.description(r.tolerance())))
                + "</pre>\n<p class=\"axes\">" + esc(p.axes()) + "</p>\n<div class=\"maps\">\n");
        int n = 0;
        for (BlockPicture.Grid g : List.of(p.numerical(), p.analytic(), p.difference())) {
            HeatMapSvg.write(p, g, "scale-" + id + "-" + n++, out);
        }
        out.write("</div>\n<p class=\"axes\">" + esc(LEGEND) + "</p>\n</section>\n");
    }

    private static String statusClass(Status status) {
        return status.needsAttention() ? "bad" : "ok";
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
            table { border-collapse: collapse; font-size: 0.9em; margin-top: 0.5em; }
            th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; } td.spec { white-space: nowrap; }
            tr.bad td.status { color: #b00; font-weight: bold; }
            tr.ok td.status { color: #070; }
            tr.details td { border-bottom: 1px solid #ddd; }
            pre { margin: 0.2em 0; white-space: pre-wrap; }
            .summary.ok { color: #070; } .summary.bad { color: #b00; }
            .summary { font-weight: bold; } .meta, .axes { color: #666; font-size: 0.9em; }
            .filter { font-weight: bold; margin-right: 0.5em; } label { margin-right: 1em; }
            .maps { display: flex; flex-wrap: wrap; gap: 1.5em; }
            figure { margin: 0; } figcaption { font-size: 0.85em; color: #444; }
            svg { shape-rendering: crispEdges; } svg text { fill: #444; font-family: system-ui, sans-serif; }
            section.block { margin-bottom: 2em; }
            """;
}
