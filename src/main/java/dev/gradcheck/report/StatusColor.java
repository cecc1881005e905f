package dev.gradcheck.report;

import dev.gradcheck.result.Status;

/**
 * ANSI colours for status labels: green for outcomes that leave the exit code at 0, red for gradient problems
 * (exit 1), yellow for operator errors (exit 3), magenta for specs that could not be read (exit 2), so each exit
 * code has one colour.
 */
final class StatusColor {

    private static final String RESET = "\u001b[0m";

    private StatusColor() {}

    static String paint(Status status, String text) {
        return code(status) + text + RESET;
    }

    private static String code(Status status) {
        return switch (status) {
            case PASSED, EXPECTED_FAIL, EXPECTED_ERROR, SKIPPED -> "\u001b[32m";
            case FAILED, UNEXPECTED_PASS -> "\u001b[31m";
            case ERROR, CRASHED, TIMEOUT -> "\u001b[33m";
            case INVALID -> "\u001b[35m";
        };
    }
}
