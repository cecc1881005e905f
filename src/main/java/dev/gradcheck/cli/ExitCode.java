package dev.gradcheck.cli;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.List;

/** The process exit codes; when several apply, the highest wins. */
public enum ExitCode {
    OK(0, "every check ended as expected"),
    MISMATCH(1, "at least one gradient mismatch, or an expected failure that passed"),
    USAGE(2, "usage error, invalid spec, or a report that could not be written in full"),
    OP_ERROR(3, "an operator errored, crashed or timed out"),
    /**
     * Set by the JVM on SIGHUP, SIGINT and SIGTERM (128 + the signal's number); listed so users know the report
     * written then is partial, and says the same code.
     */
    HANGUP(129, "hung up (SIGHUP); the report holds the checks that finished"),
    INTERRUPTED(130, "interrupted (Ctrl-C, SIGINT); the report holds the checks that finished"),
    TERMINATED(143, "terminated (SIGTERM); the report holds the checks that finished");

    private final int code;
    private final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    /** The exit code a check's status asks for. */
    public static ExitCode of(Status status) {
        return switch (status) {
            case PASSED, EXPECTED_FAIL, EXPECTED_ERROR, SKIPPED -> OK;
            case FAILED, UNEXPECTED_PASS -> MISMATCH;
            case INVALID -> USAGE;
            case ERROR, CRASHED, TIMEOUT -> OP_ERROR;
        };
    }

    /** The highest code any of the results asks for; 0 for none. */
    public static int of(List<CheckResult> results) {
        return results.stream().mapToInt(r -> of(r.status()).code).max().orElse(OK.code);
    }

    /** The exit-code list for --help footers, one "  N  meaning" line each. */
    static String[] helpLines() {
        ExitCode[] all = values();
        String[] lines = new String[all.length + 1];
        lines[0] = "%nExit codes (the highest that applies):";
        for (int i = 0; i < all.length; i++) {
            lines[i + 1] = "  " + all[i].code + "   " + all[i].meaning;
        }
        return lines;
    }
}
