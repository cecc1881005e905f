package dev.gradcheck.spec;

/**
 * Text from a spec file made safe to print on one line: control, format and line-separator characters (NUL, a
 * carriage return, U+2028, a byte-order mark, a lone surrogate) become escapes such as {@code \u2028}, and very
 * long text is cut. Every {@code file:line:col: message} goes through it, so a hostile file cannot break a
 * message over lines, hide part of it, or flood a terminal.
 */
public final class Printable {

    private Printable() {}

    /** Quoted user text is cut to this many characters. */
    static final int MAX_QUOTED = 80;

    public static String of(String text) {
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String escape = escape(text, i, c);
            if (escape != null && b == null) {
                b = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (b != null) {
                if (escape != null) {
                    b.append(escape);
                } else {
                    b.append(c);
                }
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                if (b != null) {
                    b.append(text.charAt(i + 1));
                }
                i++;
            }
        }
        return b == null ? text : b.toString();
    }

    /** User text to quote in a message: escaped, and cut with an ellipsis when longer than {@link #MAX_QUOTED}. */
    public static String quoted(String text) {
        String cut = text.length() <= MAX_QUOTED ? text
                : text.substring(0, MAX_QUOTED) + "... (" + text.length() + " characters)";
        return of(cut);
    }

    private static String escape(String text, int i, char c) {
        switch (c) {
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            default:
                break;
        }
        boolean pairedHigh = Character.isHighSurrogate(c) && i + 1 < text.length()
                && Character.isLowSurrogate(text.charAt(i + 1));
        int type = Character.getType(c);
        boolean unsafe = Character.isISOControl(c) || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || type == Character.FORMAT
                || (type == Character.SURROGATE && !pairedHigh) || c == '\uFFFE' || c == '\uFFFF';
        return unsafe ? String.format("\\u%04X", (int) c) : null;
    }
}
