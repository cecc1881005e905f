package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.CompressedJacobians;
import dev.gradcheck.check.colouring.Lightest;
import dev.gradcheck.check.colouring.Screen;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.jacobian.JacobianSide;
import dev.gradcheck.check.jacobian.NumericalJacobian;
import dev.gradcheck.check.numeric.FiniteDifferences;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericTuning;
import dev.gradcheck.result.Stencil;
import java.util.List;

/**
 * The run's second phase, an input at a time: its directional differences attributed to their columns inside the
 * pattern, each entry screened against the row pass's value, and every value outside the pattern against zero.
 */
final class ColumnPass {
    /** Where the central stencil's points lie in its evaluation ({@link FiniteDifferences#offsets}): +H, −H. */
    private static final int PLUS = 0;
    private static final int MINUS = 1;

    /** A group's evaluation as the outputs at its stencil's points, given back to the side's pool once read. */
    private static final GroupBatches.Evaluation<NumericalDerivative.Points> POINTS = new GroupBatches.Evaluation<>() {
        @Override
        public NumericalDerivative.Points of(JacobianSide side, String unit, int[] lines, double[] weights) {
            return ((NumericalJacobian) side).points(unit, lines, weights);
        }

        @Override
        public void giveBack(JacobianSide side, NumericalDerivative.Points points) {
            ((NumericalJacobian) side).giveBack(points);
        }
    };

    private final TwoSidedRun run;
    private final Entries e;
    private final Screen screen;
    /** Where the analytic values are held compactly: the entries let through on a rounded one; else null. */
    private final RoundedMaxima rounded;
    /** Whether each entry taken is one judged before, whose kept value, if any, is forgotten first. */
    private boolean again;
    /** The rows a group's members reach, cleared for each group: no garbage per difference. */
    private boolean[] owned = new boolean[0];
    /** The rows one member's column reaches, ascending, from the start: the entry loop reads them, no call each. */
    private int[] reached = new int[0];
    /** Where those rows' entries of the column are stored, and their analytic values, gathered before judging. */
    private int[] reachedAt = new int[0];
    private double[] reachedAnalytic = new double[0];
    /** The tally of the group being attributed, once an entry went into it; null before. */
    private JacobianComparison.Tally groupTally;

    private ColumnPass(TwoSidedRun run, Entries e) {
        this.run = run;
        this.e = e;
        this.screen = run.screen(e.index());
        this.rounded = e.values().compact()
                ? new RoundedMaxima(run.sides().judging().rule(run.out(), e.name(), 0), e.tallies().rounded()) : null;
    }

    /**
     * Input e's groups of columns as a pass took them: every group with its weights, and how many of them, from the
     * first, were evaluated before the screen stopped the pass (all where it did not).
     */
    record Taken(GroupBatches.Groups groups, int evaluated) {}

    /** Input e's groups of columns, drawn and evaluated a batch at a time. */
    static Taken take(TwoSidedRun run, Entries e) {
        return new ColumnPass(run, e).take();
    }

    private Taken take() {
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
        int evaluated = evaluate(taken, g -> g);
        if (rounded != null && run.screen().clean()) {
            RowsAgain.exactly(run, e, rounded);
        }
        return new Taken(taken, evaluated);
    }

    /**
     * A round that evaluates only the groups its located lines touch ({@link TouchedGroups}): input e's groups
     * {@code again} of the run's columns, evaluated and attributed as a full pass does (their entries' kept values
     * forgotten first, their tallies dropped by the caller); then the entries the run before sent on whose groups
     * are not taken again, screened again on their kept values, since the rows' side may have changed under them.
     */
    static void retake(TwoSidedRun run, Entries e, int[] again, List<EntryValues.SentOn> before) {
        ColumnPass pass = new ColumnPass(run, e);
        pass.again = true;
        String in = e.name();
        GroupBatches.Groups all = run.columns().get(in);
        int[][] lines = java.util.Arrays.stream(again).mapToObj(g -> all.lines()[g]).toArray(int[][]::new);
        double[][] weights = java.util.Arrays.stream(again).mapToObj(g -> all.weights()[g]).toArray(double[][]::new);
        pass.evaluate(new GroupBatches.Groups(run.sides().numerical(), in, lines, weights), k -> again[k]);
        int[] groupOf = new int[(int) Flat.size(e.input().shape())];
        int[] memberOf = new int[groupOf.length];
        for (int g = 0; g < all.lines().length; g++) {
            for (int k = 0; k < all.lines()[g].length; k++) {
                groupOf[all.lines()[g][k]] = g;
                memberOf[all.lines()[g][k]] = k;
            }
        }
        java.util.Map<Integer, ColumnGroup> groups = new java.util.HashMap<>();
        for (EntryValues.SentOn s : before) {
            int g = groupOf[s.col()];
            if (java.util.Arrays.binarySearch(again, g) < 0 && run.screen().clean()) {
                ColumnGroup group = groups.computeIfAbsent(g, k -> pass.group(k, all.lines()[k],
                        run.sides().numerical().applied(in, all.lines()[k], all.weights()[k])));
                pass.groupTally = null;
                pass.take(s.row(), s.at(), e.values().analytic(s.at()), group, group.member(memberOf[s.col()]),
                        s.numerical());
            }
        }
    }

    /**
     * These groups' differences, a batch at a time, each attributed as it comes to the run's group {@code index(k)}
     * ({@link #attribute}), with the outputs at its stencil's points where they are kept ({@link #keepsPoints}).
     *
     * @return how many of them were evaluated before the screen stopped the pass
     */
    private int evaluate(GroupBatches.Groups groups, java.util.function.IntUnaryOperator index) {
        NumericalJacobian side = run.sides().numerical();
        String in = e.name();
        int[][] lines = groups.lines();
        double[][] weights = groups.weights();
        if (keepsPoints(side, in)) {
            return GroupBatches.run(groups, POINTS, run.batch(), run.screen(), run.threads(), (k, points) -> {
                double[] n = side.derivative(points, run.out());
                attribute(index.applyAsInt(k), lines[k], side.applied(in, lines[k], weights[k]), n,
                        points.values().get(run.out()));
                side.giveBack(java.util.Map.of(run.out(), n));
            });
        }
        return GroupBatches.run(groups, run.batch(), run.screen(), run.threads(), (k, values) -> attribute(
                index.applyAsInt(k), lines[k], side.applied(in, lines[k], weights[k]), values.get(run.out()), null));
    }

    private ColumnGroup group(int g, int[] members, double[] applied) {
        return group(g, members, applied, null);
    }

    private ColumnGroup group(int g, int[] members, double[] applied, double[][] points) {
        return new ColumnGroup(g, members, applied, Lightest.of(applied), coarsest(run, e.name(), members), points);
    }

    /**
     * Whether the groups' outputs at the stencil's points are kept beside their differences, for the probe at h of
     * the entries near the tolerance ({@link FinerSteps}), which reads them instead of evaluating them again: for
     * the central stencil, whose two points are then what a batch holds per group in place of one difference, and
     * only where the output is no larger than the inputs, so that this stays within what the memory estimate counts
     * for a batch (an output and the inputs per evaluation: {@link RunMemory#bytes}).
     */
    private boolean keepsPoints(NumericalJacobian side, String in) {
        long inputs = 0;
        for (Entries x : run.entries()) {
            inputs += Flat.size(x.input().shape());
        }
        return side.derivative(in).stencil() == Stencil.CENTRAL && run.pattern().rows() <= inputs;
    }

    /**
     * A group of columns with the weights its difference applied, its two lightest members, its two members with
     * the largest steps (the smallest error bounds: {@link #coarsest}), and the outputs at its stencil's points
     * ({@code points[k]} at offset k, flat; null where not kept).
     */
    private record ColumnGroup(int index, int[] members, double[] applied, Lightest light, Lightest coarse,
                               double[][] points) {

        /** Its member at position k, with what each of that column's entries reads of the group. */
        Member member(int k) {
            int other = light.otherThan(k);
            return new Member(k, members[k], applied[k], other, other < 0 ? 1 : applied[other],
                    other < 0 ? -1 : members[coarse.otherThan(k)]);
        }
    }

    /**
     * A group's member as its column's entries read it, looked up once per column rather than once per entry: its
     * position and column, the weight its difference applied, the position of the strictest other member and its
     * weight (-1 and 1 where it has none), and the column whose error bound judges its rest (-1 where none).
     */
    private record Member(int position, int col, double applied, int other, double appliedOther, int boundCol) {}

    /**
     * Of these columns of input {@code in}, the two with the largest steps, as a {@link Lightest} of their
     * positions: a column's rounding bound shrinks as its step grows, so the other of them is the member whose
     * value a rest is judged as strictly as the dense check judges it.
     */
    static Lightest coarsest(TwoSidedRun run, String in, int[] columns) {
        NumericalDerivative d = run.sides().numerical().derivative(in);
        return Lightest.of(java.util.Arrays.stream(columns).mapToDouble(l -> -d.stepAt(in, l)).toArray());
    }

    private void attribute(int g, int[] members, double[] applied, double[] n, double[][] points) {
        if (owned.length != n.length) {
            owned = new boolean[n.length];
            reached = new int[n.length];
            reachedAt = new int[n.length];
            reachedAnalytic = new double[n.length];
        }
        java.util.Arrays.fill(owned, false);
        groupTally = null;
        ColumnGroup group = group(g, members, applied, points);
        int[] boxes = run.pattern().rowBoxes(e.input());
        long[] shape = e.input().shape();
        int[] rowStart = e.rowStart();
        for (int k = 0; k < members.length; k++) {
            Member member = group.member(k);
            int col = members[k];
            long[] colAt = Flat.unravel(col, shape);
            int rows = WindowPattern.flat(run.pattern().column(e.input(), col), run.pattern().outShape(), reached);
            for (int i = 0; i < rows; i++) {
                int p = reached[i];
                reachedAt[i] = rowStart[p] + WindowPattern.rankInRow(p, boxes, colAt, shape);
            }
            e.values().analytic(reachedAt, rows, reachedAnalytic);
            for (int i = 0; i < rows; i++) {
                int p = reached[i];
                owned[p] = true;
                take(p, reachedAt[i], reachedAnalytic[i], group, member, n[p] / applied[k]);
            }
            for (int p : e.extras().ofColumn(col)) {
                owned[p] = true;
                int at = e.extraAt(p, col);
                take(p, at, e.values().analytic(at), group, member, n[p] / applied[k]);
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
     * Row p's value in the group's difference, as the member's entry stored at {@code at}, whose analytic value is {@code a}: screened, and then kept,
     * or judged at once where the screen let it through and the block's entries are judged as they come.
     */
    private void take(int p, int at, double a, ColumnGroup group, Member member, double value) {
        int col = member.col();
        if (again) {
            e.values().forget(at, p, col); // what was kept of its numerical side; its analytic value stays
        }
        double rounding = e.values().rounding(at, a);
        if (rounding != 0) {
            takeRounded(p, member, a, rounding, value);
        } else if (screen(p, at, group, member, a, value) && e.tallies() != null) {
            double error = e.errors().at(p, col); // once for the tally and the rounded maxima
            tally(group).add(p, col, a, value, error);
            if (rounded != null) {
                rounded.exact(a, value, error);
            }
            e.values().judged(value);
        } else {
            e.values().numerical(at, p, col, value);
        }
    }

    /** The tally of the group being attributed, looked up on its first entry, not on each. */
    private JacobianComparison.Tally tally(ColumnGroup group) {
        if (groupTally == null) {
            groupTally = e.tallies().of(group.index());
        }
        return groupTally;
    }

    /**
     * An entry whose analytic value is held rounded: let through where the screen passes it at the end of the
     * value's interval farthest from the numerical value n (every figure the screen reads grows with |a − n|, so it
     * passes wherever the exact value lies, and has no side effect); any other needs its exact value, and the run is
     * taken again with exact values ({@link TwoSidedCompression}).
     */
    private void takeRounded(int p, Member member, double a, double rounding, double n) {
        int col = member.col();
        double far = a >= n ? a + rounding : a - rounding;
        if (passesOutright(p, member, far, n)) {
            rounded.rounded(p, col, a, rounding, n, e.errors().at(p, col));
            e.values().judged(n);
        } else {
            run.screen().needsExact(EntryNames.entry(run.out(), p, e.name(), col) + ": a rounded analytic value "
                    + a + " against numerical " + n);
        }
    }

    /**
     * Whether what an evaluation holds beyond its entry passes as zero: as an analytic value against a numerical
     * one, one of them the rest and the other 0, judged with entry (row, col)'s bound where the rule alone does
     * not pass it (no supplier per entry: this runs for every entry of the pattern).
     */
    private boolean restPasses(double analytic, double numerical, int row, int col, boolean withBound) {
        return screen.passesAsZero(analytic - numerical)
                || Screen.passes(withBound ? screen.score(analytic, numerical, e.errors().at(row, col))
                        : screen.rule().score(analytic, numerical));
    }

    /**
     * Whether the screen lets entry (p, group's member) through on analytic value a, by figures that each grow with
     * |a − n| (the rests by the rule alone, without the error bound that can let a larger rest pass where a smaller
     * one does not): passing at the end of an interval farthest from n, it passes anywhere in it, as
     * {@link #screen} would. No side effect.
     */
    private boolean passesOutright(int p, Member member, double a, double n) {
        return rowRestPasses(p, member.col(), a, n, false)
                && columnRestPasses(p, member, a, n, false)
                && screen.rule().score(a, n) <= NumericTuning.AGAIN_ABOVE;
    }

    /**
     * Whether what row p's backward pass holds beyond entry (p, col) passes as its strictest other member's value,
     * with that member's error bound where {@code withBound}.
     */
    private boolean rowRestPasses(int p, int col, double a, double n, boolean withBound) {
        RowGroups rows = run.rowGroups();
        int otherRow = rows.strictestOther()[p];
        return otherRow < 0 || restPasses(rows.weightOf()[p] * (a - n) / rows.strictestWeight()[p], 0,
                rows.quietestOther()[p], col, withBound);
    }

    /** Whether what the group's difference holds at row p beyond its member's entry passes as zero. */
    private boolean columnRestPasses(int p, Member member, double a, double n, boolean withBound) {
        return member.other() < 0 || restPasses(0, member.applied() * (n - a) / member.appliedOther(), p,
                member.boundCol(), withBound);
    }

    /**
     * Entry (p, col) by the one rule against the other side's value, and what each evaluation holds beyond it
     * as the strictest other member's value, which should be zero.
     *
     * @return whether the screen let the entry through: its value is final, no later phase takes it again
     */
    private boolean screen(int p, int at, ColumnGroup group, Member member, double a, double n) {
        int col = member.col();
        int otherCol = member.other();
        boolean rowRestPasses = rowRestPasses(p, col, a, n, true);
        boolean columnRestPasses = columnRestPasses(p, member, a, n, true);
        boolean restsPass = rowRestPasses && columnRestPasses;
        double byTolerance = screen.rule().score(a, n);
        if (restsPass && byTolerance <= NumericTuning.AGAIN_ABOVE) {
            return true;
        }
        TwoSidedScreen.Flagged f = new TwoSidedScreen.Flagged(e.index(), group.index(), p, col, at, member.applied(),
                otherCol < 0 ? -1 : group.members()[otherCol], member.appliedOther(), member.boundCol(),
                group.points() == null ? Double.NaN : group.points()[PLUS][p],
                group.points() == null ? Double.NaN : group.points()[MINUS][p]);
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
