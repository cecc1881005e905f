package dev.gradcheck.report;

import dev.gradcheck.result.Status;
import java.util.ArrayList;
import java.util.List;

/**
 * The table's columns: their widths, how a row is padded into them, and how text fits a terminal.
 *
 * <p>Widths start as the widest cell of each column (header included). With a width limit (a terminal's columns),
 * the three text columns that vary most give way, SPEC at twice the share of OP and WORST: the widest are capped
 * first, down to SPEC 8, OP 4 and WORST 5 columns; STATUS, DTYPE and the figures keep their width. Where even that
 * does not fit (below about 75 columns), ABS ERR, then DTYPE, then OP are left out. A cell wider than
 * its column is then shortened with "…" (a spec name in the middle, keeping its start and its end, which tell specs
 * of one family apart; other cells at the end), and detail lines are wrapped at the limit, continuation lines
 * indented two more. Without a limit nothing is shortened or wrapped, and a cell wider than its column (a streamed
 * row, whose widths were planned before it ran) pushes the rest of its row to the right.
 */
public final class TableLayout {

    static final String[] HEADER = {"STATUS", "SPEC", "OP", "DTYPE", "WORST", "REL ERR", "ABS ERR", "TIME"};
    /** Columns from this index on hold numbers and are right-aligned, so magnitudes line up. */
    static final int FIRST_NUMERIC = 5;
    static final int SPEC = 1;
    static final int OP = 2;
    static final int WORST = 4;
    private static final String GAP = "  ";
    private static final String ELLIPSIS = "…";
    /** The narrowest the text columns get, and their share of the room left (SPEC, the row's identity, twice). */
    private static final int[] SHRINKABLE = {SPEC, OP, WORST};
    private static final int[] MINIMUM = {8, 4, 5};
    private static final int[] SHARE = {2, 1, 1};
    /** The columns left out, in this order, of a table that does not fit even at the narrowest. */
    private static final int[] LEFT_OUT_FIRST = {6, 3, OP};
    /** Width of a column that is left out. */
    private static final int HIDDEN = -1;

    private final int[] widths;
    private final int limit;

    private TableLayout(int[] widths, int limit) {
        this.widths = widths;
        this.limit = limit;
    }

    /**
     * Columns as wide as their widest cell, fitted into {@code limit} columns (0: no limit).
     *
     * @param rows the cells of the rows to come (the header is added)
     */
    public static TableLayout of(List<String[]> rows, int limit) {
        int[] widths = new int[HEADER.length];
        for (int c = 0; c < HEADER.length; c++) {
            widths[c] = HEADER[c].length();
        }
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                widths[c] = Math.max(widths[c], SafeText.forTerminal(row[c]).length());
            }
        }
        return new TableLayout(limit > 0 ? fit(widths, limit) : widths, limit);
    }

    /** The width a line of this table takes. */
    int width() {
        int sum = -GAP.length();
        for (int w : widths) {
            sum += w == HIDDEN ? 0 : w + GAP.length();
        }
        return sum;
    }

    /**
     * The widths capped so the table fits {@code limit}: the largest cap {@code c} such that SPEC at most 2c and
     * OP and WORST at most c (never below their minimum, never above their natural width) leave room for the rest.
     */
    private static int[] fit(int[] natural, int limit) {
        int[] fitted = natural.clone();
        for (int i = 0; i <= LEFT_OUT_FIRST.length; i++) {
            int room = limit - fixedWidth(fitted);
            if (shrinkableSum(fitted, 0) <= room || i == LEFT_OUT_FIRST.length) {
                return share(fitted, room, limit);
            }
            fitted[LEFT_OUT_FIRST[i]] = HIDDEN;
        }
        return fitted;
    }

    /** The room left after the columns that keep their width, and the gaps between the columns shown. */
    private static int fixedWidth(int[] widths) {
        int fixed = -GAP.length();
        for (int c = 0; c < widths.length; c++) {
            if (widths[c] != HIDDEN) {
                fixed += GAP.length() + (shrinkable(c) ? 0 : widths[c]);
            }
        }
        return fixed;
    }

    /** The text columns capped to share {@code room}, the widest first. */
    private static int[] share(int[] natural, int room, int limit) {
        int[] fitted = natural.clone();
        if (shrinkableSum(natural, Integer.MAX_VALUE) <= room) {
            return fitted;
        }
        int cap = 0;
        while (shrinkableSum(natural, cap + 1) <= room && cap < limit) {
            cap++;
        }
        for (int i = 0; i < SHRINKABLE.length; i++) {
            int c = SHRINKABLE[i];
            fitted[c] = natural[c] == HIDDEN ? HIDDEN : capped(natural[c], i, cap);
        }
        // what rounding left over goes to SPEC, then OP, up to their natural widths
        int left = room - shrinkableSum(natural, cap);
        for (int c : SHRINKABLE) {
            if (fitted[c] != HIDDEN) {
                int more = Math.max(0, Math.min(left, natural[c] - fitted[c]));
                fitted[c] += more;
                left -= more;
            }
        }
        return fitted;
    }

    /** The text columns' widths capped at {@code cap} (0: at their minimum); hidden ones take none. */
    private static int shrinkableSum(int[] natural, int cap) {
        int sum = 0;
        for (int i = 0; i < SHRINKABLE.length; i++) {
            int w = natural[SHRINKABLE[i]];
            sum += w == HIDDEN ? 0 : capped(w, i, cap);
        }
        return sum;
    }

    private static int capped(int natural, int i, int cap) {
        long share = (long) cap * SHARE[i];
        return (int) Math.min(natural, Math.max(MINIMUM[i], share));
    }

    private static boolean shrinkable(int column) {
        for (int c : SHRINKABLE) {
            if (c == column) {
                return true;
            }
        }
        return false;
    }

    /** The header line. */
    String header() {
        return line(HEADER, null);
    }

    /**
     * One row, each cell padded to its column (text left, figures right). Colour wraps only the status text, never
     * the padding, so escape codes do not count towards a column's width and the columns stay aligned. A cell's
     * own control characters are shown as escapes ({@link SafeText#forTerminal}), measured so in {@link #of}: only
     * the table's colours reach the terminal as codes.
     *
     * @param colorFor the status whose colour the first cell takes, or null for none
     */
    String line(String[] cells, Status colorFor) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            if (widths[c] == HIDDEN) {
                continue;
            }
            String text = fitCell(SafeText.forTerminal(cells[c]), c);
            String pad = " ".repeat(Math.max(0, widths[c] - text.length()));
            String shown = c == 0 && colorFor != null ? StatusColor.paint(colorFor, text) : text;
            sb.append(c == 0 ? "" : GAP).append(c >= FIRST_NUMERIC ? pad + shown : shown + pad);
        }
        return sb.toString().stripTrailing();
    }

    private String fitCell(String cell, int column) {
        if (limit == 0 || cell.length() <= widths[column]) {
            return cell;
        }
        return column == SPEC ? shortenMiddle(cell, widths[column]) : shortenEnd(cell, widths[column]);
    }

    static String shortenEnd(String text, int width) {
        if (text.length() <= width) {
            return text;
        }
        return width <= 1 ? ELLIPSIS : text.substring(0, pairStart(text, width - 1)) + ELLIPSIS;
    }

    /** A cut at {@code i} moved back to not split a surrogate pair: half of one is no character a terminal shows. */
    private static int pairStart(String text, int i) {
        return i > 0 && i < text.length() && Character.isLowSurrogate(text.charAt(i))
                && Character.isHighSurrogate(text.charAt(i - 1)) ? i - 1 : i;
    }

    /** Keeps the start and the end (the start a little longer), e.g. {@code dot-produ…-rank4}. */
    static String shortenMiddle(String text, int width) {
        if (text.length() <= width) {
            return text;
        }
        if (width <= 2) {
            return shortenEnd(text, width);
        }
        int kept = width - 1;
        int tail = kept * 2 / 5;
        int head = kept - tail;
        int from = text.length() - tail;
        from = pairStart(text, from) == from ? from : from + 1;
        return text.substring(0, pairStart(text, head)) + ELLIPSIS + text.substring(from);
    }

    /**
     * A text broken into lines of at most the table's limit, at spaces where it can (a word longer than a line is
     * cut); the first line starts with {@code indent}, the others with {@code continuation}. One line when there
     * is no limit.
     */
    List<String> wrap(String text, String indent, String continuation) {
        List<String> lines = new ArrayList<>();
        if (limit == 0 || indent.length() + text.length() <= limit) {
            lines.add(indent + text);
            return lines;
        }
        String prefix = indent;
        String rest = text;
        while (!rest.isEmpty()) {
            int room = Math.max(10, limit - prefix.length());
            if (rest.length() <= room) {
                lines.add(prefix + rest);
                break;
            }
            int cut = rest.lastIndexOf(' ', room);
            if (cut <= 0) {
                cut = pairStart(rest, room); // one word wider than the line: cut it, between characters
            }
            lines.add((prefix + rest.substring(0, cut)).stripTrailing());
            rest = rest.substring(cut).stripLeading();
            prefix = continuation;
        }
        return lines;
    }
}
