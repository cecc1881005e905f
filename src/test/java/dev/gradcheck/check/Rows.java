package dev.gradcheck.check;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the at-size tests read off a result: its first Jacobian row and how many kinks that row's note counts. */
public final class Rows {

    private static final Pattern KINKS = Pattern.compile("(\\d+) of \\d+ elements of x sit at a nondifferentiable point");

    private Rows() {}

    /** The first Jacobian row: the at-size tests check one output against one input. */
    public static GradientResult jacobian(CheckResult r) {
        return r.rowsOf(CheckKind.JACOBIAN).get(0);
    }

    /** The kinks the row's note reports for x, 0 where it reports none. */
    public static long kinkCount(GradientResult row) {
        Matcher m = KINKS.matcher(row.note() == null ? "" : row.note());
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
