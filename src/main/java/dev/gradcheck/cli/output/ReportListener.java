package dev.gradcheck.cli.output;

import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.report.RunDetails;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Summary;
import dev.gradcheck.run.PlannedCheck;
import dev.gradcheck.run.RunListener;
import dev.gradcheck.run.RunOutcome;
import dev.gradcheck.run.Signals;
import java.util.List;

/**
 * Writes a run's report: a table on stdout row by row as checks finish (in spec order), anything else once, when
 * the run finishes; either way the summary comes when the run finishes, or when the user presses Ctrl-C (the results
 * so far, as a complete report in the chosen format). Whichever comes second does nothing; an interruption that
 * arrives during the final write waits for it, so a report is never cut in half.
 *
 * <p>The summary written always carries the code the process exits with: the checks' own code raised by usage
 * problems ({@link ExitPolicy}) at the end of a run, 128 + the signal's number on Ctrl-C, SIGTERM or SIGHUP
 * ({@link Signals}).
 */
public final class ReportListener implements RunListener {

    private final ReportWriter writer;
    private final Console console;
    private final ExitPolicy exits;
    private final long startNanos;
    private final RunDetails details;
    private boolean written;
    private int exitCode = ExitCode.OK.code();

    /**
     * @param startNanos when the command started: the summary's time covers loading the specs too
     * @param details    when and where the run is, its shard, each check's origin; fail-fast's stop is added here
     */
    public ReportListener(ReportWriter writer, Console console, ExitPolicy exits, long startNanos, RunDetails details) {
        this.writer = writer;
        this.console = console;
        this.exits = exits;
        this.startNanos = startNanos;
        this.details = details;
    }

    @Override
    public synchronized void runStarted(List<PlannedCheck> checks) {
        writer.begin(checks);
    }

    @Override
    public synchronized void checkFinished(int index, CheckResult result) {
        if (!written) {
            writer.finished(index, result);
        }
    }

    @Override
    public synchronized void runFinished(RunOutcome outcome) {
        List<CheckResult> results = outcome.results();
        int exit = exits.exitCode(results, console);
        boolean ok = write(results, Summary.of(results, seconds(), exit), false, stopped(outcome));
        exitCode = ok ? exit : Math.max(exit, ExitCode.USAGE.code());
    }

    @Override
    public synchronized void runInterrupted(RunOutcome outcome) {
        if (written || writer.written()) { // this run's report is out (the end's, or the one written while readying)
            return;
        }
        List<CheckResult> results = outcome.results();
        console.err().println("gradcheck: interrupted by " + Signals.name() + (results.isEmpty()
                ? " before any check finished" : "; the report holds the " + results.size()
                + " check(s) that finished"));
        // the code the JVM exits with: 128 + the signal's number (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP)
        write(results, Summary.of(results, seconds(), Signals.exitCode()), true, details);
        console.err().flush();
    }

    /** The code the process exits with, once the run finished: raised to 2 when the report could not be written. */
    public synchronized int exitCode() {
        return exitCode;
    }

    private boolean write(List<CheckResult> results, Summary summary, boolean interrupted, RunDetails run) {
        if (written) {
            return true;
        }
        written = true;
        return writer.write(results, summary, interrupted, run);
    }

    /** A finished run that made fewer checks than planned was stopped by fail-fast: the report says so. */
    private RunDetails stopped(RunOutcome outcome) {
        return outcome.notRun() == 0 ? details : new RunDetails(details.startedAt(), details.hostname(),
                details.shard(), outcome.notRun(), true, details.origins(), details.sources());
    }

    private double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
