package dev.gradcheck.cli.options;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

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

    /**
     * Whether gradcheck ever exits with {@code code}: a code read from elsewhere (a report given to merge) is
     * passed on only when it is one of these, so a CI job never sees a code the docs do not explain.
     */
    public static boolean known(int code) {
        return Arrays.stream(values()).anyMatch(c -> c.code == code);
    }

    /** The codes, comma-separated ({@code 0, 1, 2, ...}), for a message about a code that is not one of them. */
    public static String knownList() {
        return Arrays.stream(values()).map(c -> Integer.toString(c.code)).collect(Collectors.joining(", "));
    }

    /** What the code means when every kind of result is possible ({@code check}'s --help lists them so). */
    public String meaning() {
        return meaning;
    }

    /**
     * These codes with their usual meanings, in this order, for a command's --help ({@link ExitCodeHelp}); the map
     * may be added to.
     */
    public static Map<String, String> listed(ExitCode... codes) {
        Map<String, String> list = new LinkedHashMap<>();
        for (ExitCode c : codes) {
            list.put(Integer.toString(c.code), c.meaning);
        }
        return list;
    }

    /** The list of a command that runs no check: 0, or a usage error that {@code usage} describes. */
    public static Map<String, String> successOrUsage(String usage) {
        Map<String, String> list = new LinkedHashMap<>();
        list.put(Integer.toString(OK.code), "success");
        list.put(Integer.toString(USAGE.code), usage);
        return list;
    }
}
