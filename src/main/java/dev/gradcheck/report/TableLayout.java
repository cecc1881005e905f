package dev.gradcheck.report;

import dev.gradcheck.result.Status;
import java.util.ArrayList;
import java.util.List;

/**
 * The table's columns: their widths, how a row is padded into them, and how text fits a terminal.
 *
 * <p>Widths start as the widest cell of each column (header included). With a width limit (a terminal's columns),
 * the spec's name, the row's identity, stays readable and the columns that matter less give way first: ABS ERR,
 * then DTYPE, then TIME, then OP are left out, each only while SPEC could not otherwise keep
 * {@value #READABLE_SPEC} columns (or its whole width, when narrower) beside OP and WORST at their narrowest
 * (4 and 5). Then SPEC takes up to {@value #READABLE_SPEC} columns, OP and WORST share what is left up to their
 * own widths, and what remains goes back to SPEC; STATUS and the figures keep their width. A cell wider than its
 * column is then shortened with "…" (a spec name in the middle, keeping its start and its end, which tell specs of
 * one family apart; other cells at the end), and detail lines are wrapped at the limit, continuation lines
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
    /** The columns that give way to a width limit, SPEC last; and the narrowest each gets. */
    private static final int[] SHRINKABLE = {SPEC, OP, WORST};
    private static final int[] MINIMUM = {8, 4, 5};
    /** The width up to which SPEC goes before OP and WORST: the suite's names are nearly all this long or less. */
    static final int READABLE_SPEC = 28;
    /** The columns left out, in this order, while SPEC would not be readable: ABS ERR, DTYPE, TIME, OP. */
    private static final int[] LEFT_OUT_FIRST = {6, 3, 7, OP};
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
        return sum(widths);
    }

    /** The widths fitted into {@code limit}: the least needed columns left out while SPEC is not readable. */
    private static int[] fit(int[] natural, int limit) {
        int[] fitted = natural.clone();
        if (sum(fitted) <= limit) {
            return fitted;
        }
        for (int i = 0; i <= LEFT_OUT_FIRST.length; i++) {
            int room = limit - fixedWidth(fitted);
            if (readableSpecFits(fitted, room) || i == LEFT_OUT_FIRST.length) {
                return share(fitted, room);
            }
            fitted[LEFT_OUT_FIRST[i]] = HIDDEN;
        }
        return fitted;
    }

    private static int sum(int[] widths) {
        int sum = -GAP.length();
        for (int w : widths) {
            sum += w == HIDDEN ? 0 : w + GAP.length();
        }
        return sum;
    }

    /** Whether SPEC gets its readable width with OP and WORST (those shown) at their narrowest. */
    private static boolean readableSpecFits(int[] widths, int room) {
        int needed = Math.min(widths[SPEC], READABLE_SPEC);
        for (int i = 1; i < SHRINKABLE.length; i++) {
            int w = widths[SHRINKABLE[i]];
            needed += w == HIDDEN ? 0 : Math.min(w, MINIMUM[i]);
        }
        return needed <= room;
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

    /**
     * The text columns sharing {@code room}: SPEC up to its readable width, OP and WORST equal caps up to their
     * own widths, then what is left to SPEC, OP and WORST in that order.
     */
    private static int[] share(int[] natural, int room) {
        int[] fitted = natural.clone();
        int othersAtLeast = 0;
        for (int i = 1; i < SHRINKABLE.length; i++) {
            int w = natural[SHRINKABLE[i]];
            othersAtLeast += w == HIDDEN ? 0 : Math.min(w, MINIMUM[i]);
        }
        fitted[SPEC] = Math.min(natural[SPEC], Math.max(MINIMUM[0], Math.min(READABLE_SPEC, room - othersAtLeast)));
        int cap = 0;
        while (othersCapped(natural, cap + 1) <= room - fitted[SPEC] && cap < room) {
            cap++;
        }
        for (int i = 1; i < SHRINKABLE.length; i++) {
            int c = SHRINKABLE[i];
            fitted[c] = natural[c] == HIDDEN ? HIDDEN : capped(natural[c], i, cap);
        }
        int left = room - fitted[SPEC] - othersCapped(natural, cap);
        for (int c : SHRINKABLE) {
            if (fitted[c] != HIDDEN) {
                int more = Math.max(0, Math.min(left, natural[c] - fitted[c]));
                fitted[c] += more;
                left -= more;
            }
        }
        return fitted;
    }

    /** OP's and WORST's widths capped at {@code cap} (never below their minimum); hidden ones take none. */
    private static int othersCapped(int[] natural, int cap) {
        int sum = 0;
        for (int i = 1; i < SHRINKABLE.length; i++) {
            int w = natural[SHRINKABLE[i]];
            sum += w == HIDDEN ? 0 : capped(w, i, cap);
        }
        return sum;
    }

    private static int capped(int natural, int i, int cap) {
        return Math.min(natural, Math.max(MINIMUM[i], cap));
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
