package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.Lightest;
import dev.gradcheck.check.colouring.WindowPattern;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
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
     * values outside it returned, in group order. Where values are held compactly, a random sample of the groups
     * comes first, and the run stops after it where it shows more values need a double than there is room for
     * ({@link ExactShareSample}).
     */
    static List<Outside> attribute(TwoSidedRun run) {
        List<Outside> outside = new ArrayList<>();
        RowGroups rows = run.rowGroups();
        boolean compact = run.entries().stream().anyMatch(e -> e.values().compact());
        ExactShareSample sample = compact ? ExactShareSample.of(run.entries().size(), rows.groups().length) : null;
        int[] order = sample != null ? sample.order() : null;
        Map<String, boolean[]> owned = new HashMap<>(); // per input, cleared for each pass: no garbage per pass
        GroupBatches.run(new GroupBatches.Groups(run.sides().analytic(), run.out(), inOrder(rows.groups(), order),
                inOrder(rows.weights(), order)), run.batch(), run.screen(), run.threads(), (k, values) -> {
                    long[] exactBefore = sample != null && k < sample.size() ? exactCounts(run) : null;
                    int g = order != null ? order[k] : k;
                    attribute(run, g, values, outside, owned);
                    if (exactBefore != null) {
                        sampled(run, sample, k, g, exactBefore);
                    }
                });
        if (order != null) {
            outside.sort(Comparator.comparingInt(Outside::group)); // stable: each group's in the order found
        }
        return outside;
    }

    private static <T> T[] inOrder(T[] groups, int[] order) {
        if (order == null) {
            return groups;
        }
        T[] ordered = Arrays.copyOf(groups, groups.length);
        Arrays.setAll(ordered, k -> groups[order[k]]);
        return ordered;
    }

    private static long[] exactCounts(TwoSidedRun run) {
        return run.entries().stream().mapToLong(e -> e.values().exactCount()).toArray();
    }

    /** Group g, the sample's {@code k}th, counted; after the sample's last, the run stopped where it shows so. */
    private static void sampled(TwoSidedRun run, ExactShareSample sample, int k, int g, long[] exactBefore) {
        int[] members = run.rowGroups().groups()[g];
        for (Entries e : run.entries()) {
            long n = 0;
            for (int row : members) {
                n += e.rowStart()[row + 1] - e.rowStart()[row];
            }
            sample.add(k, e.index(), n, e.values().exactCount() - exactBefore[e.index()]);
        }
        if (k < sample.size() - 1) {
            return;
        }
        for (Entries e : run.entries()) {
            String why = e.values().compact() ? sample.tooExact(e.index(), e.name(),
                    e.rowStart()[e.rowStart().length - 1], e.values().maxExact()) : null;
            if (why != null) {
                run.screen().needsExact(why);
                return;
            }
        }
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
