package dev.gradcheck.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * The line-length limit of spec files. SnakeYAML reads a comment, or a run of characters without a space, by asking
 * its reader for one more character at a time, and the reader copies everything not yet consumed each time it
 * fetches more: the cost grows with the square of the line's length (a 16 MiB comment line took 114 s). Lines
 * over the limit are found in one pass and emptied before YAML sees them, so parsing costs at most the file's size
 * times this limit, and each is reported at its own line.
 */
final class LongLines {

    /**
     * Far longer than any line a person writes (256 Ki characters). A 3 MiB file of lines this long parses in about
     * 0.6 s; with a 1 MiB limit it took 1.2 s and a gigabyte of short-lived copies.
     */
    static final int MAX_LINE_CHARS = 1 << 18;

    /**
     * @param text  the text with every over-long line emptied (line numbers unchanged); the same object if none was
     * @param lines the 1-based numbers of the lines emptied, in order
     */
    record Blanked(String text, List<Integer> lines) {}

    private LongLines() {}

    /**
     * Empties the lines longer than {@link #MAX_LINE_CHARS} characters. A line ends where YAML's does: at a line
     * feed, a carriage return (a CR LF pair is one end), or NEL, LS or PS.
     */
    static Blanked blank(String text) {
        List<Integer> lines = new ArrayList<>();
        StringBuilder out = null;
        int copied = 0;
        int line = 1;
        int start = 0;
        int n = text.length();
        for (int i = 0; i <= n; i++) {
            char c = i < n ? text.charAt(i) : '\n';
            if (c != '\n' && c != '\r' && c != '\u0085' && c != '\u2028' && c != '\u2029') {
                continue;
            }
            if (i - start > MAX_LINE_CHARS) {
                out = out == null ? new StringBuilder(n) : out;
                out.append(text, copied, start);
                copied = i;
                lines.add(line);
            }
            if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') {
                i++;
            }
            line++;
            start = i + 1;
        }
        if (out == null) {
            return new Blanked(text, List.of());
        }
        return new Blanked(out.append(text, copied, n).toString(), List.copyOf(lines));
    }

    /** The error for an emptied line: at the first character past the limit. */
    static SpecError error(String file, int line) {
        return new SpecError(new SourcePos(file, line, MAX_LINE_CHARS + 1), "line longer than "
                + String.format(java.util.Locale.ROOT, "%,d", MAX_LINE_CHARS) + " characters, the limit for a spec"
                + " line (docs/spec-format.md#limits); the line was not read");
    }
}
