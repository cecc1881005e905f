package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.Lightest;
import dev.gradcheck.check.colouring.WindowPattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The backward passes' values attributed to their rows inside the pattern, and the values outside it kept to be
 * judged against zero once the blocks' rules are known.
 */
final class RowPass {
    private final TwoSidedCompression c;
    private final List<Outside> outside = new ArrayList<>();

    RowPass(TwoSidedCompression c) {
        this.c = c;
    }

    void attribute(int g, Map<String, double[]> values) {
        int[] members = c.rowGroups().groups()[g];
        double[] w = c.rowGroups().weights()[g];
        int lightest = Lightest.of(w).first();
        for (TwoSidedCompression.Entries e : c.entries()) {
            double[] a = values.get(e.input().name());
            boolean[] owned = new boolean[a.length];
            for (int k = 0; k < members.length; k++) {
                int member = k;
                int[] at = {e.rowStart()[members[k]]};
                WindowPattern.forEach(c.pattern().window(members[k], e.input()), e.input().shape(), l -> {
                    e.values().analytic(at[0]++, a[l] / w[member]);
                    owned[l] = true;
                });
                for (int l : e.extras().ofRow(members[k])) {
                    e.values().analytic(e.extraAt(members[k], l), a[l] / w[member]);
                    owned[l] = true;
                }
            }
            for (int l = 0; l < a.length; l++) {
                if (!owned[l] && a[l] != 0) { // NaN too
                    outside.add(new Outside(e, g, members[lightest], l, a[l] / w[lightest]));
                }
            }
        }
    }

    /** Values outside the pattern, judged as the lightest member's, whose value there should be zero. */
    void judgeOutside() {
        for (Outside v : outside) {
            TwoSidedCompression.Entries e = v.entries();
            if (!c.entryScreen(e.index()).passes(v.value(), 0, e.errors().at(v.row(), v.col()))) {
                c.screen().flag("the backward has a value outside the guessed pattern: "
                        + EntryNames.entry(c.output(), v.row(), e.input().name(), v.col()) + " = " + v.value(),
                        new TwoSidedScreen.Suspect(true, e.index(), v.group(), v.col()));
            }
        }
    }

    /** A backward pass's value at a column no row of its group reaches, as the lightest member's. */
    private record Outside(TwoSidedCompression.Entries entries, int group, int row, int col, double value) {}
}
