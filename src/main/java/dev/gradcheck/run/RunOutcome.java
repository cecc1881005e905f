package dev.gradcheck.run;

import dev.gradcheck.result.CheckResult;
import java.util.List;

/**
 * What a run came to.
 *
 * @param results     the checks that ended, in report order (with fail-fast, up to the first that did not end as
 *                    expected)
 * @param seconds     wall time of the run
 * @param interrupted whether it was cut short (Ctrl-C)
 * @param planned     how many checks the run was to make (one per spec and engine): more than {@code results}
 *                    when fail-fast stopped it or it was interrupted
 */
public record RunOutcome(List<CheckResult> results, double seconds, boolean interrupted, int planned) {

    public RunOutcome {
        results = List.copyOf(results);
        planned = Math.max(planned, results.size());
    }

    /** A run that made every check it planned. */
    public RunOutcome(List<CheckResult> results, double seconds, boolean interrupted) {
        this(results, seconds, interrupted, results.size());
    }

    /** The checks planned that never ended: fail-fast stopped the run first, or it was interrupted. */
    public int notRun() {
        return planned - results.size();
    }
}
