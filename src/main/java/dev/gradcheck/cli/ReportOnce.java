package dev.gradcheck.cli;

import dev.gradcheck.backend.WorkerProcess;
import dev.gradcheck.check.CheckResult;
import dev.gradcheck.check.Summary;
import java.util.List;

/**
 * Writes a run's report exactly once: at the end of the run, or from the shutdown hook when the user presses
 * Ctrl-C (the results so far, as a complete report in the chosen format). Whichever comes second does nothing;
 * a hook that arrives during the final write waits for it, so a report is never cut in half.
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

    /** @return false when the report could not be written */
    synchronized boolean write(List<CheckResult> results, Summary summary) {
        if (written) {
            return true;
        }
        written = true;
        return writer.write(results, summary);
    }

    /** The shutdown hook's part: stop the run and report what finished. */
    void interrupted(Console console) {
        List<CheckResult> results = run.interrupt();
        synchronized (this) {
            if (written) {
                return;
            }
            console.err().println("gradcheck: interrupted; the report holds the " + results.size()
                    + " check(s) that finished");
            write(results, Summary.of(results, (System.nanoTime() - startNanos) / 1e9));
            console.err().flush();
            WorkerProcess.killAll(); // after the report: a check ended by this must not look like a crash

        }
    }
}
