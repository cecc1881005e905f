package dev.gradcheck.report;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import dev.gradcheck.result.Verdict;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The terminal report: a header, one aligned row per check, indented detail lines under checks that need
 * attention (see {@link DetailLines}), a blank line and the {@link SummaryLine}. Lines end in {@code \n} on every
 * platform so output and goldens are byte-identical everywhere. Columns are as wide as their widest cell, fitted
 * into {@link ReportContext#columns()} when that is set ({@link TableLayout}). Layout documented in
 * docs/report-schema.md.
 */
public final class TableRenderer implements ReportRenderer {

    @Override
    public void render(List<CheckResult> results, Summary summary, ReportContext ctx, Writer out)
            throws IOException {
        List<CheckResult> shown = ctx.quiet() ? results.stream().filter(r -> r.status().needsAttention()).toList()
                : results;
        TableStream table = new TableStream(TableLayout.of(shown.stream().map(TableRenderer::cells).toList(),
                ctx.columns()), ctx, out);
        for (CheckResult r : shown) {
            table.row(r);
        }
        table.finish(summary, ctx);
    }

    /** The row shows the worst block's own errors, so every figure on it describes the same gradient. */
    static String[] cells(CheckResult r) {
        GradientResult worst = r.gradients() == null ? null : r.worstGradient();
        return new String[] {
            StatusLabel.of(r.status()),
            specCell(r.name(), r.backend()),
            orDash(r.op()),
            orDash(r.dtype()),
            GradientText.name(worst),
            worst == null ? "-" : Numbers.sci(worst.maxRelError()),
            worst == null ? "-" : Numbers.sci(worst.maxAbsError()),
            Numbers.millis(r.seconds()),
        };
    }

    /**
     * The cells a row is expected to need before its check ran, for a table whose widths are planned ahead (the
     * live report): what the spec says, and the widest figures the check usually produces. A row that turns out
     * wider pushes the rest of its line right (or, fitted to a terminal, is shortened).
     *
     * @param worst       the longest block name the spec's inputs and outputs can give ({@code d<output>/d<input>})
     * @param expectsPass whether the spec expects to pass (then no expected or unexpected outcome can be its status)
     */
    public static String[] plannedCells(String name, String backend, String op, String dtype, String worst,
                                        boolean expectsPass) {
        return new String[] {widestLabel(expectsPass), specCell(name, backend), orDash(op), orDash(dtype), worst,
            Numbers.sci(1.0e-10), Numbers.sci(1.0e-10), Numbers.millis(9.9999)};
    }

    /**
     * The widest status label a row can show: a spec expected to pass cannot end as an expected failure or error
     * or an unexpected pass (the three widest labels), so its STATUS column stays as narrow as "INVALID" and the
     * room goes to SPEC and OP.
     */
    static String widestLabel(boolean expectsPass) {
        String widest = "";
        for (Status s : Status.values()) {
            boolean possible = !expectsPass || (s != Status.EXPECTED_FAIL && s != Status.EXPECTED_ERROR
                    && s != Status.UNEXPECTED_PASS);
            String label = StatusLabel.of(s);
            widest = possible && label.length() > widest.length() ? label : widest;
        }
        return widest;
    }

    /**
     * The longest WORST cell a check of these outputs and inputs usually shows: its blocks' rows, of the kind its
     * mode adds ({@code Mode.rowKind()}: fast projections in fast mode; at order 2 the backward's own Jacobian
     * blocks too) and a failed zero-gradient check, the sanity check that fails most.
     */
    public static String widestBlockName(List<String> outputs, List<String> inputs, CheckKind blockKind, int order) {
        List<GradientResult> blocks = new ArrayList<>();
        for (String out : outputs.isEmpty() ? List.of("0") : outputs) {
            for (String in : inputs) {
                blocks.add(block(out, in, blockKind));
                blocks.add(block(out, in, CheckKind.ZERO_GRAD));
                if (order == 2) {
                    blocks.add(block("grad_" + in, in, CheckKind.JACOBIAN));
                    blocks.add(block("grad_" + in, "v_" + out, CheckKind.JACOBIAN));
                }
            }
        }
        return blocks.stream().map(GradientText::name).max(Comparator.comparingInt(String::length)).orElse("-");
    }

    private static GradientResult block(String output, String input, CheckKind kind) {
        return new GradientResult(output, input, kind, 1, Verdict.PASS, 0, 0, 0, null, 0, 0, null, null);
    }

    /** The spec's name, with the backend beside it when that is not the default engine (one row per backend). */
    private static String specCell(String name, String backend) {
        boolean other = backend != null && !backend.isEmpty() && !backend.equals(Engine.DEFAULT.specName());
        return orDash(name) + (other ? " (" + backend + ")" : "");
    }

    private static String orDash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }
}
