package dev.gradcheck.report;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

/**
 * The table written a row at a time, as checks finish: the header before the first row, each row with its detail
 * lines, then the summary. {@link TableRenderer} writes a whole run through it, the live report of {@code check}
 * row by row, so both read the same. With {@code quiet}, rows that need no attention are left out (the summary
 * still counts them); when no row was written, the report is the summary line alone.
 */
public final class TableStream {

    private static final String DETAIL_INDENT = "  ";
    private static final String CONTINUATION_INDENT = "    ";

    private final TableLayout layout;
    private final ReportContext ctx;
    private final Writer out;
    private boolean headerWritten;
    /** The checks that need attention, in the order their rows came: the recap above the summary lists them. */
    private final List<CheckResult> unexpected = new ArrayList<>();
    private int checks;

    public TableStream(TableLayout layout, ReportContext ctx, Writer out) {
        this.layout = layout;
        this.ctx = ctx;
        this.out = out;
    }

    /** Writes one check's row and detail lines (not with {@code quiet}, unless it needs attention). */
    public void row(CheckResult r) throws IOException {
        checks++;
        if (r.status().needsAttention()) {
            unexpected.add(r);
        }
        if (ctx.quiet() && !r.status().needsAttention()) {
            return;
        }
        StringBuilder text = new StringBuilder();
        if (!headerWritten) {
            text.append(layout.header()).append('\n');
            headerWritten = true;
        }
        text.append(layout.line(TableRenderer.cells(r), ctx.color() ? r.status() : null)).append('\n');
        for (String raw : DetailLines.of(r)) {
            // escaped before its depth is measured: a message's leading tab or vertical tab is text, not indent
            String detail = SafeText.forTerminal(raw);
            // a detail under another (a block's mismatch count) keeps its depth, and wraps two deeper than itself
            String depth = detail.substring(0, detail.length() - detail.stripLeading().length());
            for (String line : layout.wrap(detail.stripLeading(), DETAIL_INDENT + depth,
                    CONTINUATION_INDENT + depth)) {
                text.append(line).append('\n');
            }
        }
        out.write(text.toString());
    }

    /**
     * The summary line: after a blank line when rows were written, else alone ("no specs found", ...). Above it,
     * when checks need attention, the {@link Recap} of them (not with {@code quiet}, whose rows are those checks, nor
     * under a table of one check, which ends with its row).
     *
     * @param end the report's context at its end: a run cut short (Ctrl-C) or stopped by fail-fast says so
     */
    public void finish(Summary summary, ReportContext end) throws IOException {
        StringBuilder text = new StringBuilder(headerWritten ? "\n" : "");
        // a table of one check ends with its row already (the shell's, a one-spec run)
        List<String> recap = ctx.quiet() || checks < 2 ? List.of()
                : Recap.lines(unexpected, summary.exitCode(), ctx.columns(), ctx.color());
        for (String line : recap) {
            text.append(line).append('\n');
        }
        text.append(recap.isEmpty() ? "" : "\n");
        for (String line : layout.wrap(SafeText.forTerminal(SummaryLine.of(summary, end)), "",
                DETAIL_INDENT)) {
            text.append(line).append('\n');
        }
        out.write(text.toString());
    }
}
