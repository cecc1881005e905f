package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.Nonzeros;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.numeric.Flat;
import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A round of locating that evaluates only the groups its located lines touch, over the first run's entries: the
 * groups of rows and of columns that hold a located line are evaluated again without it (each located line alone),
 * with the weights they had; every other group's values, and the judgements of its entries as they came, are the
 * first run's, which the run again with these weights would repeat.
 *
 * <p>One thing the run again would not repeat: an entry of a touched group of rows at an untouched group of columns
 * was judged on the first run's analytic value, read off the whole group, and its numerical value was not kept. So
 * the touched group's evaluation without its located rows, plus each located row's own values times its weight, must
 * give back at each position what the whole group gave there (the backward is linear in its cotangent): the
 * difference, judged as a rest is (the lightest member's value against zero, with the group's quietest bound, at a
 * quarter of the rule), certifies that the first run's value of such an entry is the value the run again reads, so
 * its judgement stands. Where it does not pass, this round gives up and the whole run is taken again. What the
 * remainder holds at a position none of its own rows reaches is a value outside the pattern, sent back with where it
 * is, as the row pass sends it. The entries of the touched groups of columns are then judged again, whatever their
 * row (their tallies dropped, {@link GroupTallies}), and every entry the first run sent on is screened again on its
 * kept value, for the phases after. docs/checking.md, "Values outside the pattern, at layer sizes".
 */
final class TouchedGroups {

    /**
     * What the rounds over one first run need of its values once a round has changed them: per input, the analytic
     * values a round replaced, as the first run read them off its groups, and the entries the first run recomputed
     * alone (whose values it replaced itself, so that none is left to certify against).
     */
    record First(TwoSidedRun run, List<Int2DoubleOpenHashMap> replaced, List<BitSet> recomputed) {

        static First of(TwoSidedRun run) {
            List<Int2DoubleOpenHashMap> replaced = new ArrayList<>();
            List<BitSet> recomputed = new ArrayList<>();
            for (Entries e : run.entries()) {
                replaced.add(new Int2DoubleOpenHashMap());
                recomputed.add(e.values().recomputed());
            }
            return new First(run, replaced, recomputed);
        }

        /** Entry {@code at}'s analytic value as the first run read it off its group. */
        double analytic(Entries e, int at) {
            Int2DoubleOpenHashMap r = replaced.get(e.index());
            return r.containsKey(at) ? r.get(at) : e.values().analytic(at);
        }

        /** Gives entry {@code at} its value in this round, the first run's kept aside. */
        void replace(Entries e, int at, int row, int col, double a) {
            Int2DoubleOpenHashMap r = replaced.get(e.index());
            if (!r.containsKey(at)) {
                r.put(at, e.values().analytic(at));
            }
            e.analytic(at, row, col, a);
        }
    }

    private final TwoSidedRun run;
    private final TwoSidedRun first;
    private final First kept;
    private final LocatedLines.Restricted rows;
    /** Each located row's own values (weight 1), per input, by row. */
    private final Map<Integer, Map<String, Nonzeros>> alone = new HashMap<>();
    private boolean certified = true;

    private TouchedGroups(TwoSidedRun run, First kept, LocatedLines.Restricted rows) {
        this.run = run;
        this.first = kept.run();
        this.kept = kept;
        this.rows = rows;
    }

    /**
     * Whether a round over {@code first} may evaluate only the groups its lines touch: the first run took every
     * column pass, located nothing before, held its analytic values exactly and judged its entries as they came,
     * left nothing out at a kink, and sent back nothing that the located lines do not account for.
     */
    static boolean applies(TwoSidedRun first, boolean columnPassesTaken) {
        if (!columnPassesTaken || first.located().count() > 0 || first.screen().unplaced()
                || first.screen().needsExact() != null) {
            return false;
        }
        return first.entries().stream().allMatch(e -> e.tallies() != null && !e.values().compact()
                && e.kinks().isEmpty());
    }

    /**
     * The round's run: the first run's entries, screens and weights, its groups with these lines taken out; kinks
     * of its own (the first run left none out), since a round's recomputations find them again.
     */
    static TwoSidedRun start(TwoSidedRun first, LocatedLines located) {
        RowGroups base = first.rowGroups();
        LocatedLines.Restricted r = LocatedLines.Restricted.of(base.groups(), base.weights(), located.rows());
        RowGroups rowGroups = RowGroups.weighted(r.lines(), r.weights(), first.target().magnitudes(first.out()));
        List<Entries> entries = new ArrayList<>();
        Map<String, GroupBatches.Groups> columns = new LinkedHashMap<>();
        for (Entries e : first.entries()) {
            entries.add(new Entries(e.index(), e.input(), e.rowStart(), e.values(), e.errors(),
                    located.extras(e.name(), Flat.size(e.input().shape())), new Kinks(), e.tallies()));
            GroupBatches.Groups g = first.columns().get(e.name());
            LocatedLines.Restricted c = LocatedLines.Restricted.of(g.lines(), g.weights(), located.columns(e.name()));
            columns.put(e.name(), new GroupBatches.Groups(g.side(), g.unit(), c.lines(), c.weights()));
        }
        return new TwoSidedRun(first.target(), first.settings(), first.sides(), first.pattern(), first.out(),
                first.threads(), first.batch(), located, rowGroups, entries, new ArrayList<>(first.screens()),
                columns, new TwoSidedScreen());
    }

    /**
     * The round's evaluations, up to the phases that follow a column pass: the touched groups of rows, certified
     * against the first run, then each input's touched groups of columns and the entries sent on screened again.
     *
     * @return false where the first run's values could not be certified: the whole run is to be taken again
     */
    static boolean take(TwoSidedRun run, First kept) {
        TwoSidedRun first = kept.run();
        RowGroups base = first.rowGroups();
        TouchedGroups t = new TouchedGroups(run, kept, LocatedLines.Restricted.of(base.groups(), base.weights(),
                run.located().rows()));
        t.rows();
        if (!t.certified) {
            return false;
        }
        for (Entries e : run.entries()) {
            if (!run.screen().clean()) {
                break;
            }
            t.columns(e, first.columns().get(e.name()).lines().length);
        }
        return true;
    }

    /** The located rows alone, then each touched group without them, certified and attributed. */
    private void rows() {
        int before = first.rowGroups().groups().length;
        int[] singles = java.util.stream.IntStream.range(before, rows.lines().length).toArray();
        evaluate(singles, (g, values) -> {
            int q = rows.lines()[g][0];
            Map<String, Nonzeros> kept = new HashMap<>();
            values.forEach((in, v) -> kept.put(in, Nonzeros.of(v)));
            alone.put(q, kept);
            for (Entries e : run.entries()) {
                outside(e, g, values.get(e.name()), null);
            }
        });
        evaluate(rows.touched(), (g, values) -> {
            for (Entries e : run.entries()) {
                group(e, g, values == null ? null : values.get(e.name()));
            }
        });
    }

    private void evaluate(int[] groups, GroupBatches.Use use) {
        List<Integer> nonEmpty = new ArrayList<>();
        for (int g : groups) {
            if (rows.lines()[g].length == 0) {
                use.accept(g, null); // every member located: nothing left to evaluate
            } else {
                nonEmpty.add(g);
            }
        }
        int[] index = nonEmpty.stream().mapToInt(Integer::intValue).toArray();
        int[][] lines = Arrays.stream(index).mapToObj(g -> rows.lines()[g]).toArray(int[][]::new);
        double[][] weights = Arrays.stream(index).mapToObj(g -> rows.weights()[g]).toArray(double[][]::new);
        GroupBatches.run(new GroupBatches.Groups(run.sides().analytic(), run.out(), lines, weights), run.batch(),
                run.screen(), run.threads(), (k, values) -> use.accept(index[k], values));
    }

    /**
     * Touched group g of the first run, its remainder's values {@code a} (null: none left): each position a member
     * reaches certified against the first run's value there, and given its value in this round; what the
     * remainder holds where none of its rows reaches sent back.
     */
    private void group(Entries e, int g, double[] a) {
        int[] members = first.rowGroups().groups()[g];
        double[] w = first.rowGroups().weights()[g];
        Located located = located(e, g);
        boolean[] ownedByRemainder = new boolean[(int) Flat.size(e.input().shape())];
        for (int k = 0; k < members.length && certified; k++) {
            int p = members[k];
            double weight = w[k];
            boolean stays = !alone.containsKey(p);
            int[] at = {e.rowStart()[p]};
            WindowPattern.forEach(first.pattern().window(p, e.input()), e.input().shape(), l -> {
                int i = at[0]++;
                double now = stays ? a[l] / weight : alone(p, e, l);
                certify(e, i, l, located, a, weight);
                kept.replace(e, i, p, l, now);
                ownedByRemainder[l] |= stays;
            });
            for (int l : e.extras().ofRow(p)) {
                e.analytic(e.extraAt(p, l), p, l, stays ? a[l] / weight : alone(p, e, l));
                ownedByRemainder[l] |= stays;
            }
        }
        if (a != null && certified) {
            outside(e, g, a, ownedByRemainder);
        }
    }

    /**
     * Entry {@code at}'s value in the first run, w·Â, against what the remainder and the located rows give at l:
     * where they differ by more than a rest may hold, the first run's judgement of its entries cannot stand.
     */
    private void certify(Entries e, int at, int l, Located located, double[] a, double weight) {
        if (kept.recomputed().get(e.index()).get(at)) {
            return; // the first run replaced its value by the recomputed one; sent on, so judged again anyway
        }
        double given = a == null ? 0 : a[l];
        for (int k = 0; k < located.weights().length; k++) {
            given += located.weights()[k] * located.values()[k].get(l);
        }
        double delta = given - weight * kept.analytic(e, at);
        if (!run.screen(e.index()).passes(delta / located.lightest(), 0, e.errors().at(located.quietest(), l))) {
            certified = false;
        }
    }

    /**
     * A touched group's located rows, their weights in it and their own values of one input; and the group's
     * lightest weight and quietest row, which a difference from the first run is judged with.
     */
    private record Located(double[] weights, Nonzeros[] values, double lightest, int quietest) {}

    private Located located(Entries e, int g) {
        int[] members = first.rowGroups().groups()[g];
        double[] w = first.rowGroups().weights()[g];
        List<Integer> at = new ArrayList<>();
        for (int k = 0; k < members.length; k++) {
            if (alone.containsKey(members[k])) {
                at.add(k);
            }
        }
        return new Located(at.stream().mapToDouble(k -> w[k]).toArray(),
                at.stream().map(k -> alone.get(members[k]).get(e.name())).toArray(Nonzeros[]::new),
                Arrays.stream(w).min().orElse(1), first.rowGroups().quietest()[g]);
    }

    private double alone(int p, Entries e, int l) {
        return alone.get(p).get(e.name()).get(l);
    }

    /**
     * What group g of this round's rows holds where none of its rows reaches ({@code owned}, or a single member's window and
     * extras where null), judged as the row pass judges it: as the lightest member's value against zero, with the
     * quietest member's bound.
     */
    private void outside(Entries e, int g, double[] a, boolean[] owned) {
        int[] members = run.rowGroups().groups()[g];
        double[] w = run.rowGroups().weights()[g];
        int quietest = run.rowGroups().quietest()[g];
        List<RowPass.Outside> found = new ArrayList<>();
        double lightest = Arrays.stream(w).min().orElse(1);
        int lightestRow = members[0];
        for (int k = 0; k < members.length; k++) {
            lightestRow = w[k] == lightest ? members[k] : lightestRow;
        }
        boolean[] reached = owned != null ? owned : new boolean[a.length];
        if (owned == null) {
            int p = members[0];
            WindowPattern.forEach(first.pattern().window(p, e.input()), e.input().shape(), l -> reached[l] = true);
            Arrays.stream(e.extras().ofRow(p)).forEach(l -> reached[l] = true);
        }
        for (int l = 0; l < a.length; l++) {
            if (!reached[l] && a[l] != 0) {
                found.add(new RowPass.Outside(e, g, lightestRow, l, a[l] / lightest, quietest));
            }
        }
        RowPass.judgeOutside(run, found);
    }

    /**
     * Input e's touched groups of columns judged again: their tallies dropped, every entry the first run sent on
     * forgotten, and the groups evaluated and the other entries sent on screened again ({@link ColumnPass#retake}).
     */
    private void columns(Entries e, int before) {
        GroupBatches.Groups taken = first.columns().get(e.name());
        LocatedLines.Restricted c = LocatedLines.Restricted.of(taken.lines(), taken.weights(),
                run.located().columns(e.name()));
        int[] again = java.util.stream.IntStream.range(0, c.lines().length).filter(g -> c.again(g, before)
                && c.lines()[g].length > 0).toArray();
        Arrays.stream(c.touched()).forEach(e.tallies()::drop);
        e.tallies().dropFrom(before);
        List<EntryValues.SentOn> sentOn = e.values().sentOnEntries();
        sentOn.forEach(s -> e.values().forget(s.at(), s.row(), s.col()));
        ColumnPass.retake(run, e, again, sentOn);
    }
}
