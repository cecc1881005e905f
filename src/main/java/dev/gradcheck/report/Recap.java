package dev.gradcheck.report;

import dev.gradcheck.result.CheckResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The table's closing recap of what set the exit code, as pytest's "short test summary": after the rows, above the
 * summary line, one line per check that needs attention, with its status, spec name, {@code file:line:col} and
 * one-line reason ({@link DetailLines#headline}), so a long run's verdict is read at its end without scrolling back.
 * Names and locations are aligned; fitted to a terminal, a line is shortened at its end, the reason going first,
 * and where a reason would get too little room, the location and the reason go on a line of their own under
 * the check, as a compiler says a problem ({@code file:line:col: reason}).
 */
final class Recap {

    private static final String GAP = "  ";
    /** The least room a reason gets beside its name and location before it moves to a line of its own. */
    private static final int MIN_REASON = 30;

    private Recap() {}

    /**
     * The recap's lines: a heading, then one line per check; none when no check needs attention.
     *
     * @param exitCode the code the run's summary carries, named in the heading
     * @param limit    the terminal's width, 0 for none
     * @param color    whether the status labels are coloured as in the table
     */
    static List<String> lines(List<CheckResult> unexpected, int exitCode, int limit, boolean color) {
        List<String> lines = new ArrayList<>();
        if (unexpected.isEmpty()) {
            return lines;
        }
        lines.add("unexpected results (exit code " + exitCode + "):");
        int label = 0;
        int name = 0;
        int location = 0;
        for (CheckResult r : unexpected) {
            label = Math.max(label, StatusLabel.of(r.status()).length());
            name = Math.max(name, text(r.name()).length());
            location = Math.max(location, text(r.location()).length());
        }
        // aligned, one line a check, while that leaves the reasons some room; else two lines a check: the status
        // and name, then the location and the reason as a compiler says a problem (file:line:col: reason)
        boolean oneLine = limit == 0 || label + name + location + 3 * GAP.length() + MIN_REASON <= limit;
        for (CheckResult r : unexpected) {
            String status = StatusLabel.of(r.status());
            String reason = SafeText.forTerminal(DetailLines.headline(r));
            String shownStatus = color ? StatusColor.paint(r.status(), status) : status;
            String head = pad(status, label) + GAP + pad(text(r.name()), oneLine ? name : 0);
            if (oneLine) {
                String line = head + GAP + pad(text(r.location()), location) + GAP + reason;
                lines.add(shownStatus + fitted(line, limit).substring(status.length()));
            } else {
                lines.add(shownStatus + fitted(head, limit).substring(status.length()));
                lines.add(fitted(GAP + text(r.location()) + ": " + reason, limit));
            }
        }
        return lines;
    }

    private static String fitted(String line, int limit) {
        return limit > 0 ? TableLayout.shortenEnd(line, limit) : line;
    }

    private static String text(String s) {
        return s == null || s.isEmpty() ? "-" : SafeText.forTerminal(s);
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
