package dev.gradcheck.cli.output;

import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.List;

/**
 * The exit code of a {@code check} run: the highest its checks ask for, raised to 2 by usage problems the
 * command knows of, each said on stderr.
 *
 * @param pathProblems   a path given on the command line did not exist (already said)
 * @param emptySelection when nothing is checked: what narrowed the selection to nothing (" matching --only [..]",
 *                       or "" when no spec was found at all), to say why; null when an empty run is fine (a shard
 *                       that holds none of a non-empty selection)
 * @param requireBackend --require-backend: a check skipped because its engine is not usable here is a usage error
 */
public record ExitPolicy(boolean pathProblems, String emptySelection, boolean requireBackend) {

    int exitCode(List<CheckResult> results, Console console) {
        boolean usageProblem = pathProblems;
        if (results.isEmpty() && emptySelection != null) {
            // a CI job that checks nothing must not look green
            console.err().println("gradcheck: no specs found" + emptySelection);
            usageProblem = true;
        }
        long skipped = results.stream().filter(r -> r.status() == Status.SKIPPED).count();
        if (requireBackend && skipped > 0) {
            console.err().println("gradcheck: --require-backend: " + skipped
                    + " check(s) skipped because their backend is not usable here");
            usageProblem = true;
        }
        return Math.max(ExitCode.of(results), usageProblem ? ExitCode.USAGE.code() : 0);
    }
}
