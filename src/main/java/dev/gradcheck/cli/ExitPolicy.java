package dev.gradcheck.cli;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.List;

/**
 * The exit code of a {@code check} run: the highest its checks ask for, raised to 2 by usage problems the
 * command knows of, each said on stderr.
 *
 * @param pathProblems   a path given on the command line did not exist (already said)
 * @param only           --only's globs, to say why nothing was found
 * @param skip           --skip's globs, likewise
 * @param requireBackend --require-backend: a check skipped because its engine is not usable here is a usage error
 */
record ExitPolicy(boolean pathProblems, List<String> only, List<String> skip, boolean requireBackend) {

    int exitCode(List<CheckResult> results, Console console) {
        boolean usageProblem = pathProblems;
        if (results.isEmpty()) {
            // a CI job that checks nothing must not look green
            console.err().println("gradcheck: no specs found" + (only.isEmpty() ? "" : " matching --only " + only)
                    + (skip.isEmpty() ? "" : " outside --skip " + skip));
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
