package dev.gradcheck.report;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

/**
 * The terminal report: a header, one aligned row per check, indented detail lines under checks that need
 * attention (see {@link DetailLines}), a blank line and the {@link SummaryLine}. Lines end in {@code \n} on every
 * platform so output and goldens are byte-identical everywhere. Layout documented in docs/report-schema.md.
 */
public final class TableRenderer implements ReportRenderer {

    private static final String[] HEADER = {"STATUS", "SPEC", "OP", "DTYPE", "WORST", "REL ERR", "ABS ERR", "TIME"};
    /** Columns from this index on hold numbers and are right-aligned, so magnitudes line up. */
    private static final int FIRST_NUMERIC = 5;
    private static final String GAP = "  ";
    private static final String DETAIL_INDENT = "  ";

    @Override
    public void render(List<CheckResult> results, Summary summary, ReportContext ctx, Writer out)
            throws IOException {
        if (results.isEmpty()) {
            out.write(SummaryLine.of(summary, ctx) + "\n");
            return;
        }
        if (ctx.quiet()) { // only what needs attention; the summary still counts everything
            results = results.stream().filter(r -> r.status().needsAttention()).toList();
            if (results.isEmpty()) {
                out.write(SummaryLine.of(summary, ctx) + "\n");
                return;
            }
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (CheckResult r : results) {
            rows.add(cells(r));
        }
        int[] widths = widths(rows);
        out.write(line(HEADER, widths, null) + "\n");
        for (int i = 0; i < results.size(); i++) {
            CheckResult r = results.get(i);
            out.write(line(rows.get(i + 1), widths, ctx.color() ? r : null) + "\n");
            for (String detail : DetailLines.of(r)) {
                out.write(DETAIL_INDENT + detail + "\n");
            }
        }
        out.write("\n" + SummaryLine.of(summary, ctx) + "\n");
    }

    /** The row shows the worst block's own errors, so every figure on it describes the same gradient. */
    private static String[] cells(CheckResult r) {
        GradientResult worst = r.gradients() == null ? null : r.worstGradient();
        return new String[] {
            StatusLabel.of(r.status()),
            specCell(r),
            orDash(r.op()),
            orDash(r.dtype()),
            GradientText.name(worst),
            worst == null ? "-" : Numbers.sci(worst.maxRelError()),
            worst == null ? "-" : Numbers.sci(worst.maxAbsError()),
            Numbers.millis(r.seconds()),
        };
    }

    /** The spec's name, with the backend beside it when that is not the default engine (one row per backend). */
    private static String specCell(CheckResult r) {
        String backend = r.backend();
        boolean other = backend != null && !backend.isEmpty() && !backend.equals(Engine.DEFAULT.specName());
        return orDash(r.name()) + (other ? " (" + backend + ")" : "");
    }

    private static int[] widths(List<String[]> rows) {
        int[] widths = new int[HEADER.length];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        return widths;
    }

    /**
     * Pads each cell to its column. Colour wraps only the status text, never the padding, so the escape codes do
     * not count towards a column's width and the columns stay aligned with colour on.
     */
    private static String line(String[] cells, int[] widths, CheckResult colorFor) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            String pad = " ".repeat(widths[c] - cells[c].length());
            String text = c == 0 && colorFor != null ? StatusColor.paint(colorFor.status(), cells[c]) : cells[c];
            sb.append(c == 0 ? "" : GAP).append(c >= FIRST_NUMERIC ? pad + text : text + pad);
        }
        return sb.toString();
    }

    private static String orDash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }
}
