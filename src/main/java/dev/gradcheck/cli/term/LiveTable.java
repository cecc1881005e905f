package dev.gradcheck.cli.term;

import dev.gradcheck.report.ReportContext;
import dev.gradcheck.report.TableLayout;
import dev.gradcheck.report.TableRenderer;
import dev.gradcheck.report.TableStream;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Summary;
import dev.gradcheck.run.PlannedCheck;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The table on stdout while the run goes: each row written as soon as it and every row before it have finished,
 * so rows come in spec order however the checks finish. Column widths are planned from the specs before any check
 * ends (names, ops, dtypes, the block names their inputs give), since a row cannot be moved once written; the
 * figures get their usual width.
 */
public final class LiveTable {

    private final TableStream table;
    private final PrintWriter out;
    private final Map<Integer, CheckResult> waiting = new HashMap<>();
    /** Rows 0 .. released-1 have been written (or left out by --quiet). */
    private int released;

    public LiveTable(List<PlannedCheck> planned, ReportContext ctx, PrintWriter out) {
        this.out = out;
        this.table = new TableStream(TableLayout.of(planned.stream().map(LiveTable::cells).toList(), ctx.columns()),
                ctx, out);
    }

    /** A row finished: it and any finished rows after it are written, if every row before it was. */
    public void finished(int index, CheckResult result) {
        waiting.put(index, result);
        while (waiting.containsKey(released)) {
            row(waiting.remove(released));
            released++;
        }
        out.flush();
    }

    /**
     * The run is over: the rows that finished but could not be written yet (after Ctrl-C, those past a check that
     * never ended), then the summary.
     *
     * @param results every check that ended, in report order
     * @param end     the report's context at its end: whether the run was cut short, fail-fast's stop
     */
    public void end(List<CheckResult> results, Summary summary, ReportContext end) {
        for (CheckResult r : results.subList(Math.min(released, results.size()), results.size())) {
            row(r);
        }
        try {
            table.finish(summary, end);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.flush();
    }

    private void row(CheckResult r) {
        try {
            table.row(r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a row will show, as far as its spec tells before it runs. */
    static String[] cells(PlannedCheck p) {
        OpSpec spec = p.spec();
        if (spec == null) {
            return TableRenderer.plannedCells(p.name(), "", "", "", "-", true); // it ends as INVALID
        }
        String dtype = spec.inputs().stream().filter(i -> i.dtype().isFloating()).map(InputSpec::dtype)
                .map(d -> d.specName()).reduce((a, b) -> a.length() >= b.length() ? a : b).orElse("-");
        List<String> outputs = spec.outputs().stream().map(Located::value).toList();
        String worst = TableRenderer.widestBlockName(outputs, spec.check(), spec.mode().rowKind(), spec.order());
        boolean expectsPass = spec.expect() == null || spec.expect().kind() == Expectation.Kind.PASS;
        return TableRenderer.plannedCells(p.name(), p.engine().specName(), spec.op().value(), dtype, worst,
                expectsPass);
    }
}
