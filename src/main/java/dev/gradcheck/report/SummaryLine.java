package dev.gradcheck.report;

import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import java.util.ArrayList;
import java.util.List;

/**
 * The last line of a table report, e.g. {@code 32 checks: 30 passed, 1 failed, 1 expected failure (4.21 s)}.
 *
 * <p>"passed" and "failed" always appear, so a script or a reader finds them in the same place every run; the
 * other categories appear only when non-zero, to keep a healthy run short. Categories come in {@link Status}
 * declaration order. Public because the CLI's {@code --quiet} mode prints this line alone.
 */
public final class SummaryLine {

    /** The whole table report when a run found nothing to check. */
    public static final String NO_SPECS = "no specs found";
    /** The whole table report when Ctrl-C came before any check finished. */
    public static final String INTERRUPTED_EARLY = "interrupted before any check finished";

    /** The line of a run cut short says so, so a partial report is never read as the whole batch. */
    public static String of(Summary s, boolean interrupted) {
        if (!interrupted) {
            return of(s);
        }
        return s.total() == 0 ? INTERRUPTED_EARLY : of(s) + ", interrupted";
    }

    /**
     * The line for a report: as {@link #of(Summary, boolean)}, plus, when fail-fast stopped the run, that it did
     * and how many checks never ran, so a short report is never read as the whole batch.
     */
    public static String of(Summary s, ReportContext ctx) {
        String line = of(s, ctx.interrupted());
        RunDetails run = ctx.run();
        if (run.stoppedEarly() && run.notRun() > 0 && s.total() > 0) {
            line += "; stopped at the first unexpected result (--fail-fast): " + plural(run.notRun(), "check", "checks")
                    + " not run";
        }
        return line;
    }

    private SummaryLine() {}

    public static String of(Summary s) {
        if (s.total() == 0) {
            return NO_SPECS;
        }
        List<String> parts = new ArrayList<>();
        for (Status status : Status.values()) {
            int n = s.counts().getOrDefault(status, 0);
            if (n > 0 || status == Status.PASSED || status == Status.FAILED) {
                parts.add(n + " " + category(status, n));
            }
        }
        return plural(s.total(), "check", "checks") + ": " + String.join(", ", parts)
                + " (" + Numbers.seconds(s.seconds()) + ")";
    }

    private static String category(Status status, int n) {
        return switch (status) {
            case PASSED -> "passed";
            case FAILED -> "failed";
            case EXPECTED_FAIL -> n == 1 ? "expected failure" : "expected failures";
            case UNEXPECTED_PASS -> n == 1 ? "unexpected pass" : "unexpected passes";
            case ERROR -> n == 1 ? "error" : "errors";
            case EXPECTED_ERROR -> n == 1 ? "expected error" : "expected errors";
            case INVALID -> "invalid";
            case CRASHED -> "crashed";
            case TIMEOUT -> n == 1 ? "timeout" : "timeouts";
            case SKIPPED -> "skipped";
        };
    }

    private static String plural(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }
}
