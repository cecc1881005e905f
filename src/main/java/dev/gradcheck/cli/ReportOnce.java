package dev.gradcheck.cli;

import dev.gradcheck.backend.WorkerProcess;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Summary;
import java.util.List;

/**
 * Writes a run's report exactly once: at the end of the run, or from the shutdown hook when the user presses
 * Ctrl-C (the results so far, as a complete report in the chosen format). Whichever comes second does nothing;
 * a hook that arrives during the final write waits for it, so a report is never cut in half.
 *
 * <p>The summary written always carries the code the process exits with: the checks' own code raised by usage
 * problems at the end of a run, {@link ExitCode#INTERRUPTED} from the hook.
 */
final class ReportOnce {

    private final ReportWriter writer;
    private final CheckRun run;
    private final long startNanos;
    private boolean written;

    ReportOnce(ReportWriter writer, CheckRun run, long startNanos) {
        this.writer = writer;
        this.run = run;
        this.startNanos = startNanos;
    }

    /**
     * @param exitCode the code the process will exit with, recorded in the summary
     * @return false when the report could not be written
     */
    synchronized boolean write(List<CheckResult> results, Summary summary, int exitCode) {
        return write(results, withExitCode(summary, exitCode), false);
    }

    /** The shutdown hook's part: stop the run and report what finished, marked as interrupted. */
    void interrupted(Console console) {
        List<CheckResult> results = run.interrupt();
        synchronized (this) {
            if (written) {
                return;
            }
            console.err().println(results.isEmpty() ? "gradcheck: interrupted before any check finished"
                    : "gradcheck: interrupted; the report holds the " + results.size() + " check(s) that finished");
            Summary summary = Summary.of(results, (System.nanoTime() - startNanos) / 1e9, ExitCode.INTERRUPTED.code());
            write(results, withExitCode(summary, ExitCode.INTERRUPTED.code()), true);
            console.err().flush();
            WorkerProcess.killAll(); // after the report: a check ended by this must not look like a crash
        }
    }

    private boolean write(List<CheckResult> results, Summary summary, boolean interrupted) {
        if (written) {
            return true;
        }
        written = true;
        return writer.write(results, summary, interrupted);
    }

    /** The summary's own code comes from the checks alone; the process may exit with a higher one. */
    private static Summary withExitCode(Summary s, int exitCode) {
        return s.withExitCode(exitCode);
    }
}
