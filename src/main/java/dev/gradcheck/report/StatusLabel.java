package dev.gradcheck.report;

import dev.gradcheck.result.Status;

/** The short label the table shows for a status: upper case where it needs attention. */
public final class StatusLabel {

    private StatusLabel() {}

    public static String of(Status status) {
        return switch (status) {
            case PASSED -> "pass";
            case FAILED -> "FAIL";
            case EXPECTED_FAIL -> "xfail";
            case UNEXPECTED_PASS -> "XPASS";
            case ERROR -> "ERROR";
            case EXPECTED_ERROR -> "xerror";
            case INVALID -> "INVALID";
            case CRASHED -> "CRASH";
            case TIMEOUT -> "TIMEOUT";
            case SKIPPED -> "skip";
        };
    }
}
