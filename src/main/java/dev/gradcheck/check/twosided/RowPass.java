package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.Lightest;
import dev.gradcheck.check.colouring.WindowPattern;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's first phase: the backward passes' values attributed to their rows inside the pattern, and the values
 * outside it kept to be judged against zero once the blocks' screens are known ({@link #judgeOutside}).
 */
final class RowPass {

    private RowPass() {}

    /**
     * A backward pass's value at a column no row of its group reaches, as the lightest member's, judged with the
     * bound of the quietest member {@code boundRow} (the strictest, as the dense check would judge whichever row
     * put it there).
     */
    record Outside(Entries entries, int group, int row, int col, double value, int boundRow) {}

    /**
     * Every group of rows' backward pass, a batch at a time: each value inside the pattern into its entry; the
     * values outside it returned.
     */
    static List<Outside> attribute(TwoSidedRun run) {
        List<Outside> outside = new ArrayList<>();
        RowGroups rows = run.rowGroups();
        Map<String, boolean[]> owned = new HashMap<>(); // per input, cleared for each pass: no garbage per pass
        GroupBatches.run(new GroupBatches.Groups(run.sides().analytic(), run.out(), rows.groups(), rows.weights()),
                run.batch(), run.screen(), run.threads(), (g, values) -> attribute(run, g, values, outside, owned));
        return outside;
    }

    private static void attribute(TwoSidedRun run, int g, Map<String, double[]> values, List<Outside> outside,
                                  Map<String, boolean[]> ownedByInput) {
        int[] members = run.rowGroups().groups()[g];
        double[] w = run.rowGroups().weights()[g];
        int lightest = Lightest.of(w).first();
        for (Entries e : run.entries()) {
            double[] a = values.get(e.name());
            boolean[] owned = ownedByInput.computeIfAbsent(e.name(), k -> new boolean[a.length]);
            Arrays.fill(owned, false);
            for (int k = 0; k < members.length; k++) {
                int member = k;
                int row = members[k];
                int[] at = {e.rowStart()[row]};
                WindowPattern.forEach(run.pattern().window(row, e.input()), e.input().shape(), l -> {
                    e.analytic(at[0]++, row, l, a[l] / w[member]);
                    owned[l] = true;
                });
                for (int l : e.extras().ofRow(row)) {
                    e.analytic(e.extraAt(row, l), row, l, a[l] / w[member]);
                    owned[l] = true;
                }
            }
            if (e.values().tooExact()) {
                run.screen().needsExact(String.format(java.util.Locale.ROOT,
                        "more than %,d of %s's analytic values need more than a float", e.values().maxExact(),
                        e.name()));
            }
            for (int l = 0; l < a.length; l++) {
                if (!owned[l] && a[l] != 0) { // NaN too
                    outside.add(new Outside(e, g, members[lightest], l, a[l] / w[lightest],
                            run.rowGroups().quietest()[g]));
                }
            }
        }
    }

    /** Values outside the pattern, judged as the lightest member's, whose value there should be zero. */
    static void judgeOutside(TwoSidedRun run, List<Outside> outside) {
        for (Outside v : outside) {
            Entries e = v.entries();
            if (!run.screen(e.index()).passes(v.value(), 0, e.errors().at(v.boundRow(), v.col()))) {
                run.screen().flag("the backward has a value outside the guessed pattern: "
                        + EntryNames.entry(run.out(), v.row(), e.name(), v.col()) + " = " + v.value(),
                        new TwoSidedScreen.Suspect(true, e.index(), v.group(), v.col()));
            }
        }
    }
}
