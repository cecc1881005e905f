package dev.gradcheck.report;

import java.util.Locale;

/**
 * Number formatting shared by the text renderers. Locale.ROOT throughout: a report must not change with the
 * machine's locale (a decimal comma would break goldens and every tool that parses the table).
 */
final class Numbers {

    private Numbers() {}

    /** Errors and scores: three significant digits in scientific notation, e.g. {@code 3.20e-10}. */
    static String sci(double v) {
        String special = special(v);
        return special != null ? special : String.format(Locale.ROOT, "%.2e", v);
    }

    /**
     * Jacobian entries: up to six significant digits, trailing zeros dropped ({@code 0.5}, {@code 1e-10}), so
     * the two values of a worst element can be compared at a glance.
     */
    static String plain(double v) {
        String special = special(v);
        if (special != null) {
            return special;
        }
        if (v == 0) {
            return "0"; // also folds -0.0, whose sign means nothing in a report
        }
        String s = String.format(Locale.ROOT, "%.6g", v);
        int e = s.indexOf('e');
        String mantissa = e < 0 ? s : s.substring(0, e);
        String exponent = e < 0 ? "" : s.substring(e);
        if (mantissa.indexOf('.') >= 0) {
            mantissa = mantissa.replaceAll("0+$", "");
            if (mantissa.endsWith(".")) {
                mantissa = mantissa.substring(0, mantissa.length() - 1);
            }
        }
        return mantissa + exponent;
    }

    /** A check's wall time in milliseconds, one decimal: {@code 12.3 ms}. */
    static String millis(double seconds) {
        String special = special(seconds);
        return (special != null ? special : String.format(Locale.ROOT, "%.1f", seconds * 1000)) + " ms";
    }

    /** A batch's wall time in seconds, two decimals: {@code 4.21 s}. */
    static String seconds(double seconds) {
        String special = special(seconds);
        return (special != null ? special : String.format(Locale.ROOT, "%.2f", seconds)) + " s";
    }

    /** {@code nan}, {@code inf}, {@code -inf}, or null for a finite value. */
    private static String special(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return null;
    }
}
