package dev.gradcheck.check.twosided;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The backward passes of a few row groups again, for the exact analytic values of the entries held rounded that
 * might be one of their block's maxima ({@link RoundedMaxima}): each group's pass is the row pass's own (the same
 * rows, the same weights), and each value divided by its row's weight as {@link RowPass} divides it, so the value is
 * the one the row pass took. One pass per group touched, counted with the run's evaluations.
 */
final class RowsAgain {

    private RowsAgain() {}

    /** Input e's rounded candidates into its tally, each with its exact analytic value. */
    static void exactly(TwoSidedRun run, Entries e, RoundedMaxima rounded) {
        List<RoundedMaxima.Candidate> left = rounded.finish();
        if (left.isEmpty()) {
            return;
        }
        Map<Integer, List<RoundedMaxima.Candidate>> byGroup = byGroup(run.rowGroups(), left);
        int[] touched = byGroup.keySet().stream().mapToInt(Integer::intValue).toArray();
        int[][] lines = new int[touched.length][];
        double[][] weights = new double[touched.length][];
        for (int k = 0; k < touched.length; k++) {
            lines[k] = run.rowGroups().groups()[touched[k]];
            weights[k] = run.rowGroups().weights()[touched[k]];
        }
        double[] weightOf = run.rowGroups().weightOf();
        GroupBatches.run(new GroupBatches.Groups(run.sides().analytic(), run.out(), lines, weights), run.batch(),
                run.screen(), run.threads(), (k, values) -> {
                    double[] a = values.get(e.name());
                    for (RoundedMaxima.Candidate c : byGroup.get(touched[k])) {
                        rounded.exactly(c, a[c.col()] / weightOf[c.row()]);
                    }
                });
    }

    /** The candidates by the row group their row is in, in group order. */
    private static Map<Integer, List<RoundedMaxima.Candidate>> byGroup(RowGroups rows,
                                                                       List<RoundedMaxima.Candidate> left) {
        Map<Integer, Integer> groupOf = new HashMap<>();
        left.forEach(c -> groupOf.put(c.row(), -1));
        for (int g = 0; g < rows.groups().length; g++) {
            for (int p : rows.groups()[g]) {
                if (groupOf.containsKey(p)) {
                    groupOf.put(p, g);
                }
            }
        }
        Map<Integer, List<RoundedMaxima.Candidate>> byGroup = new TreeMap<>();
        for (RoundedMaxima.Candidate c : left) {
            byGroup.computeIfAbsent(groupOf.get(c.row()), g -> new ArrayList<>()).add(c);
        }
        return byGroup;
    }
}
