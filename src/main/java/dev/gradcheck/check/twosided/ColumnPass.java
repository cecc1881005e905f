package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.CompressedJacobians;
import dev.gradcheck.check.colouring.Lightest;
import dev.gradcheck.check.colouring.Screen;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericTuning;

/**
 * The run's second phase, an input at a time: its directional differences attributed to their columns inside the
 * pattern, each entry screened against the row pass's value, and every value outside the pattern against zero.
 */
final class ColumnPass {
    private final TwoSidedRun run;
    private final Entries e;
    private final Screen screen;

    private ColumnPass(TwoSidedRun run, Entries e) {
        this.run = run;
        this.e = e;
        this.screen = run.screen(e.index());
    }

    /** Input e's groups of columns, drawn and evaluated a batch at a time; returns the groups and their weights. */
    static GroupBatches.Groups take(TwoSidedRun run, Entries e) {
        return new ColumnPass(run, e).take();
    }

    private GroupBatches.Groups take() {
        String in = e.name();
        int[][] groups = LocatedLines.isolate(run.pattern().columnGroups(e.input()), run.located().columns(in));
        int bits = run.sides().numerical().weightBits(in);
        double[][] weights = new double[groups.length][];
        for (int g = 0; g < groups.length; g++) {
            weights[g] = groups[g].length == 1 ? new double[] {1}
                    : CompressedJacobians.weights(run.settings().seed(), "two-sided:columns:" + in + ":" + g,
                            groups[g].length, bits);
        }
        GroupBatches.Groups taken = new GroupBatches.Groups(run.sides().numerical(), in, groups, weights);
        GroupBatches.run(taken, run.batch(), run.screen(), run.threads(), (g, values) -> attribute(g,
                groups[g], run.sides().numerical().applied(in, groups[g], weights[g]), values.get(run.out())));
        return taken;
    }

    /**
     * A group of columns with the weights its difference applied, its two lightest members, and its two members with
     * the largest steps (the smallest error bounds: {@link #coarsest}).
     */
    private record ColumnGroup(int index, int[] members, double[] applied, Lightest light, Lightest coarse) {}

    /**
     * Of these columns of input {@code in}, the two with the largest steps, as a {@link Lightest} of their
     * positions: a column's rounding bound shrinks as its step grows, so the other of them is the member whose
     * value a rest is judged as strictly as the dense check judges it.
     */
    static Lightest coarsest(TwoSidedRun run, String in, int[] columns) {
        NumericalDerivative d = run.sides().numerical().derivative(in);
        return Lightest.of(java.util.Arrays.stream(columns).mapToDouble(l -> -d.stepAt(in, l)).toArray());
    }

    private void attribute(int g, int[] members, double[] applied, double[] n) {
        boolean[] owned = new boolean[n.length];
        ColumnGroup group = new ColumnGroup(g, members, applied, Lightest.of(applied),
                coarsest(run, e.name(), members));
        int[] boxes = run.pattern().rowBoxes(e.input());
        for (int k = 0; k < members.length; k++) {
            int member = k;
            int col = members[k];
            long[] colAt = Flat.unravel(col, e.input().shape());
            WindowPattern.forEach(run.pattern().column(e.input(), col), run.pattern().outShape(), p -> take(p,
                    e.rowStart()[p] + WindowPattern.rankInRow(p, boxes, colAt, e.input().shape()), group, member, n[p], owned));
            for (int p : e.extras().ofColumn(col)) {
                take(p, e.extraAt(p, col), group, member, n[p], owned);
            }
        }
        int lightest = group.light().first();
        for (int p = 0; p < n.length; p++) {
            if (!owned[p] && n[p] != 0 && !screen.passes(0, n[p] / applied[lightest],
                    e.errors().at(p, members[group.coarse().first()]))) {
                run.screen().flag("the finite differences see a dependency outside the guessed pattern: "
                        + EntryNames.row(run.out(), p) + "/d" + e.name() + " along columns from " + members[0],
                        new TwoSidedScreen.Suspect(false, e.index(), g, p));
            }
        }
    }

    /**
     * Row p's value in the group's difference, as the member's entry stored at {@code at}: screened, and then kept,
     * or judged at once where the screen let it through and the block's entries are judged as they come.
     */
    private void take(int p, int at, ColumnGroup group, int member, double difference, boolean[] owned) {
        double value = difference / group.applied()[member];
        owned[p] = true;
        int col = group.members()[member];
        if (screen(p, at, group, member, value) && e.tally() != null) {
            e.tally().add(p, col, e.values().analytic(at), value, e.errors().at(p, col));
            e.values().judged(value);
        } else {
            e.values().numerical(at, p, col, value);
        }
    }

    /**
     * Whether what an evaluation holds beyond its entry passes as zero: as an analytic value against a numerical
     * one, one of them the rest and the other 0, judged with entry (row, col)'s bound where the rule alone does
     * not pass it (no supplier per entry: this runs for every entry of the pattern).
     */
    private boolean restPasses(double analytic, double numerical, int row, int col) {
        return screen.passesAsZero(analytic - numerical)
                || Screen.passes(screen.score(analytic, numerical, e.errors().at(row, col)));
    }

    /**
     * Entry (p, col) by the one rule against the other side's value, and what each evaluation holds beyond it
     * as the strictest other member's value, which should be zero.
     *
     * @return whether the screen let the entry through: its value is final, no later phase takes it again
     */
    private boolean screen(int p, int at, ColumnGroup group, int member, double n) {
        int col = group.members()[member];
        double[] applied = group.applied();
        double a = e.values().analytic(at);
        RowGroups rows = run.rowGroups();
        int otherRow = rows.strictestOther()[p];
        int otherCol = group.light().otherThan(member);
        int boundCol = otherCol < 0 ? -1 : group.members()[group.coarse().otherThan(member)];
        boolean rowRestPasses = otherRow < 0 || restPasses(
                rows.weightOf()[p] * (a - n) / rows.weightOf()[otherRow], 0, rows.quietestOther()[p], col);
        boolean columnRestPasses = otherCol < 0 || restPasses(
                0, applied[member] * (n - a) / applied[otherCol], p, boundCol);
        boolean restsPass = rowRestPasses && columnRestPasses;
        double byTolerance = screen.rule().score(a, n);
        if (restsPass && byTolerance <= NumericTuning.AGAIN_ABOVE) {
            return true;
        }
        TwoSidedScreen.Flagged f = new TwoSidedScreen.Flagged(e.index(), group.index(), p, col, at, applied[member],
                otherCol < 0 ? -1 : group.members()[otherCol], otherCol < 0 ? 1 : applied[otherCol], boundCol);
        String what = EntryNames.entry(run.out(), p, e.name(), col) + ": analytic " + a + ", numerical " + n;
        if (restsPass) {
            run.screen().near(f); // near or beyond the tolerance: judged at its most precise step, as densely
        } else if (Screen.passes(screen.score(a, n, e.errors().at(p, col)))) {
            // the entry agrees: its rests may hold only its own numerical error, judged without it by SplitRests
            run.screen().spoiled(new TwoSidedScreen.Spoiled(f, !rowRestPasses, !columnRestPasses,
                    byTolerance > NumericTuning.AGAIN_ABOVE), what);
        } else if (run.screen().takesFailingAtFinerSteps()) { // perhaps only truncation: see SplitRests, FinerSteps
            run.screen().spoiled(new TwoSidedScreen.Spoiled(f, !rowRestPasses, !columnRestPasses, true), what);
        } else {
            run.screen().entry(f, what);
        }
        return false;
    }
}
