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
 */
public record RunOutcome(List<CheckResult> results, double seconds, boolean interrupted) {

    public RunOutcome {
        results = List.copyOf(results);
    }
}
