package dev.gradcheck.junit;

import dev.gradcheck.report.DetailLines;
import dev.gradcheck.report.SafeText;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestExecutionResult;
import org.opentest4j.AssertionFailedError;

/**
 * How a spec's results (one per engine it ran on) end as a JUnit test: a result that needs attention fails it
 * (a mismatch or an unexpected pass as an assertion failure; an error, crash, timeout or invalid spec as an error),
 * with the table's detail lines; otherwise a pass is successful, and a spec that only ended as expected (a known
 * failure or error) or could not run here is skipped with its reason.
 *
 * @param skipReason why the test is skipped, or null when it ran (then {@code result} says how it ended)
 */
record Outcome(String skipReason, TestExecutionResult result) {

    static Outcome of(List<CheckResult> rows) {
        List<CheckResult> attention = rows.stream().filter(r -> r.status().needsAttention()).toList();
        if (!attention.isEmpty()) {
            return ran(TestExecutionResult.failed(failure(attention)));
        }
        if (rows.stream().anyMatch(r -> r.status() == Status.PASSED)) {
            return ran(TestExecutionResult.successful());
        }
        return new Outcome(SafeText.forXml(rows.stream().map(Outcome::skipReason).distinct()
                .collect(Collectors.joining("; "))), null);
    }

    /** A failure that is not a check's: a bad setting, a plugin that did not load, a selector that found nothing. */
    static Outcome problem(String message) {
        return ran(TestExecutionResult.failed(new CheckError(SafeText.forXml(message))));
    }

    private static Outcome ran(TestExecutionResult result) {
        return new Outcome(null, result);
    }

    private static Throwable failure(List<CheckResult> rows) {
        // Surefire writes the message into its XML as it is: nothing XML cannot hold may reach it
        String message = SafeText.forXml(rows.stream().map(Outcome::describe).collect(Collectors.joining("\n")));
        boolean mismatch = rows.stream().allMatch(r -> r.status() == Status.FAILED
                || r.status() == Status.UNEXPECTED_PASS);
        if (!mismatch) {
            return new CheckError(message);
        }
        AssertionFailedError error = new AssertionFailedError(message);
        error.setStackTrace(new StackTraceElement[0]); // the message is the whole story
        return error;
    }

    /** {@code file:line:col: name [backend] status}, then the table's detail lines (worst element, counts, ...). */
    static String describe(CheckResult r) {
        StringBuilder text = new StringBuilder(r.location()).append(": ").append(r.name());
        if (!r.backend().isEmpty()) {
            text.append(" [").append(r.backend()).append(']');
        }
        text.append(' ').append(r.status().name().toLowerCase(Locale.ROOT).replace('_', ' '));
        DetailLines.of(r).forEach(line -> text.append("\n  ").append(line));
        return text.toString();
    }

    private static String skipReason(CheckResult r) {
        return switch (r.status()) {
            case EXPECTED_FAIL, EXPECTED_ERROR -> "expected " + r.expected() + ": "
                    + (r.reason() == null ? "(the spec gives no reason)" : r.reason());
            default -> r.message() == null ? r.status().jsonName() : r.message();
        };
    }

    /** A check that could not be judged (error, crash, timeout, invalid spec): the message, no stack trace. */
    static final class CheckError extends RuntimeException {
        CheckError(String message) {
            super(message, null, false, false);
        }
    }
}
