package dev.gradcheck.report;

/**
 * Text that a report did not write itself (spec names, file paths, operator messages, what an engine printed)
 * made safe for the format it goes into, one rule per kind of output. A character that may not appear becomes the
 * six-character escape <code>&#92;uXXXX</code> of its UTF-16 code unit (ESC as <code>&#92;u001B</code>, NUL as
 * <code>&#92;u0000</code>), the notation {@code spec.Printable} uses for messages on stderr, so one spelling shows
 * the same character in every output. The escape is for reading, not for decoding back (a backslash is left as it
 * is): the JSON report holds the exact text.
 *
 * <p>Its own class rather than {@code spec.Printable} because report/ may use nothing but result/
 * (ArchitectureTest), and because a document may keep line ends where a terminal line may not.
 */
public final class SafeText {

    private SafeText() {}

    /**
     * For XML 1.0 (JUnit) and HTML: the characters XML 1.0 cannot hold, not even as a character reference (C0
     * controls other than tab, line feed and carriage return, U+FFFE, U+FFFF, a surrogate without its pair), and
     * DEL and the C1 controls (U+007F to U+009F), which XML discourages, HTML calls a parse error, and a terminal
     * that is shown the file ({@code cat report.xml} in a CI log) may obey. Tab and line ends are kept: a report's
     * bodies are several lines.
     */
    public static String forXml(String text) {
        return escape(text, false);
    }

    /**
     * For a terminal line (the table, live or written whole): every character a terminal could obey rather than
     * show, so a spec name can neither colour nor move the cursor nor hide rows: all control characters (line ends
     * and tab too: a line is one row), line and paragraph separators, format characters (bidirectional overrides,
     * zero-width ones), U+FFFE, U+FFFF and a surrogate without its pair.
     */
    public static String forTerminal(String text) {
        return escape(text, true);
    }

    private static String escape(String text, boolean terminal) {
        if (text == null) {
            return null;
        }
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean paired = Character.isHighSurrogate(c) ? i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))
                    : Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
            boolean unsafe = !paired && (terminal ? unsafeOnTerminal(c) : unsafeInXml(c));
            if (unsafe && b == null) {
                b = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (b != null) {
                b.append(unsafe ? String.format("\\u%04X", (int) c) : String.valueOf(c));
            }
        }
        return b == null ? text : b.toString();
    }

    /** Called only for a character that is not half of a surrogate pair: a surrogate here is a lone one. */
    private static boolean unsafeInXml(char c) {
        if (c == '\t' || c == '\n' || c == '\r') {
            return false;
        }
        return c < 0x20 || (c >= 0x7F && c <= 0x9F) || Character.isSurrogate(c) || c == '\uFFFE' || c == '\uFFFF';
    }

    private static boolean unsafeOnTerminal(char c) {
        int type = Character.getType(c);
        return Character.isISOControl(c) || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.FORMAT || Character.isSurrogate(c) || c == '\uFFFE' || c == '\uFFFF';
    }
}
