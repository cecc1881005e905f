package dev.gradcheck.cli.options;

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

    /**
     * The exit codes a command's --help lists: only those it can end with, each with what it means there
     * ({@code check} has them all, {@code merge} those of the runs it merges, {@code explain} and {@code shell}
     * those of the checks they run; the others end with 0 or a usage error).
     */
    public static java.util.Map<String, String> helpList(String command) {
        java.util.Map<String, String> list = new java.util.LinkedHashMap<>();
        switch (command) {
            case "check" -> {
                for (ExitCode c : values()) {
                    list.put(Integer.toString(c.code), c.meaning);
                }
            }
            case "merge" -> { // the code the whole run would have had: the checks', or a shard's own
                for (ExitCode c : List.of(OK, MISMATCH, USAGE, OP_ERROR)) {
                    list.put(Integer.toString(c.code), c == USAGE ? "usage error, a report that cannot be read or"
                            + " merged (a schema version mixed, a shard twice or missing), an invalid spec, or"
                            + " output not written in full" : c.meaning);
                }
                for (ExitCode c : List.of(HANGUP, INTERRUPTED, TERMINATED)) {
                    list.put(Integer.toString(c.code), "a shard's run was " + c.meaning.substring(0,
                            c.meaning.indexOf(';')) + ": the merged report holds what it had");
                }
            }
            case "explain" -> { // a check of each spec, then its pictures
                for (ExitCode c : List.of(OK, MISMATCH)) {
                    list.put(Integer.toString(c.code), c.meaning);
                }
                list.put("2", "usage error, an invalid spec, no spec of that --name, or an HTML page or output that"
                        + " could not be written");
                list.put("3", OP_ERROR.meaning);
                list.put("130", "interrupted (Ctrl-C): nothing is drawn");
            }
            case "shell" -> { // a script's lines are commands: its code is the highest of theirs
                list.put("0", "at a terminal; reading a script, every line succeeded");
                list.put("1", "reading a script: a line's check found a gradient mismatch, or an expected failure"
                        + " passed");
                list.put("2", "usage error (of the shell, or of a script's line), or an invalid spec");
                list.put("3", "reading a script: in a line's check an operator errored, crashed or timed out");
                list.put("", "'exit CODE' ends the shell with CODE");
            }
            case "validate" -> {
                list.put("0", "every spec is valid");
                list.put("2", "a spec is invalid, a path was not found, a usage error, or output that could not be"
                        + " written in full");
            }
            case "gradcheck" -> {
                list.put("0", "success");
                list.put("2", "usage error");
                list.put("", "each command's --help lists the codes it ends with");
            }
            default -> {
                list.put("0", "success");
                list.put("2", switch (command) {
                    case "list-ops" -> "usage error, a plugin that cannot load, or output not written in full";
                    case "coverage" -> "usage error, a path was not found, or output not written in full";
                    default -> "usage error, or output that could not be written in full";
                });
            }
        }
        return list;
    }
}
