package dev.gradcheck.cli.output;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.run.RunListener;
import dev.gradcheck.run.RunOutcome;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code --durations N}: after the report, the N slowest checks on stderr (all of them for 0), as pytest's
 * {@code --durations} prints them after its summary. On stderr so that a report on stdout stays a report; the
 * JSON report has every check's time anyway.
 */
public final class SlowestChecks implements RunListener {

    private final int count;
    private final PrintWriter err;

    public SlowestChecks(int count, PrintWriter err) {
        this.count = count;
        this.err = err;
    }

    @Override
    public void runFinished(RunOutcome outcome) {
        List<CheckResult> slowest = outcome.results().stream()
                .sorted(Comparator.comparingDouble(CheckResult::seconds).reversed())
                .limit(count == 0 ? Long.MAX_VALUE : count).toList();
        if (slowest.isEmpty()) {
            return;
        }
        err.println((count == 0 ? "checks" : "slowest " + slowest.size() + (slowest.size() == 1 ? " check" : " checks"))
                + ", by time:");
        int nameWidth = slowest.stream().mapToInt(r -> label(r).length()).max().orElse(0);
        for (CheckResult r : slowest) {
            err.println(String.format(Locale.ROOT, "  %9.3f s  %-" + nameWidth + "s  %s", r.seconds(), label(r),
                    r.location()));
        }
        err.flush();
    }

    private static String label(CheckResult r) {
        boolean other = r.backend() != null && !r.backend().isEmpty()
                && !r.backend().equals(Engine.DEFAULT.specName());
        return r.name() + (other ? " (" + r.backend() + ")" : "");
    }
}
