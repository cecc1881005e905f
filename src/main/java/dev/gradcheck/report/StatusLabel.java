package dev.gradcheck.report;

import dev.gradcheck.result.Status;
import java.util.Locale;

/**
 * How every human-readable format names a status: by its JSON name ({@link Status#jsonName()}), so one status reads
 * alike in the table, the shell, HTML, GitHub annotations and JSON; in upper case where it needs attention
 * ({@link Status#needsAttention()}), so those stand out in a column: {@code passed}, {@code FAILED},
 * {@code expected_fail}, {@code UNEXPECTED_PASS}, ...
 */
public final class StatusLabel {

    private StatusLabel() {}

    public static String of(Status status) {
        String name = status.jsonName();
        return status.needsAttention() ? name.toUpperCase(Locale.ROOT) : name;
    }
}
