package dev.gradcheck.report;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * How reports write when a run started. JSON: ISO 8601 with the machine's offset, to the second
 * ({@code 2024-05-01T14:03:07+02:00}). JUnit XML: the local date and time without an offset
 * ({@code 2024-05-01T14:03:07}), as Ant's JUnit report writes it and as Jenkins reads it.
 */
public final class Timestamps {

    private static final DateTimeFormatter JSON = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX", Locale.ROOT);
    private static final DateTimeFormatter JUNIT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss", Locale.ROOT);

    private Timestamps() {}

    static String json(OffsetDateTime t) {
        return t == null ? null : JSON.format(t);
    }

    static String junit(OffsetDateTime t) {
        return t == null ? null : JUNIT.format(t);
    }

    /** A JSON report's timestamp read back; null for null or a spelling that is not one. */
    public static OffsetDateTime parse(String text) {
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
