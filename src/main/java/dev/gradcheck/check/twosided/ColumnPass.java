package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.CompressedJacobians;
import dev.gradcheck.check.colouring.Lightest;
import dev.gradcheck.check.colouring.Screen;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.NumericTuning;

/** One input's directional differences attributed to their columns inside the pattern, each entry screened. */
final class ColumnPass {
    private final TwoSidedCompression c;
    private final TwoSidedCompression.Entries e;
    private final Screen screen;

    private int inputIndex() {
        return e.index();
    }

    ColumnPass(TwoSidedCompression c, TwoSidedCompression.Entries e) {
        this.c = c;
        this.e = e;
        this.screen = c.entryScreen(e.index());
    }

    void run() {
        String in = e.input().name();
        int[][] groups = LocatedLines.isolate(c.pattern().columnGroups(e.input()), c.located().columns(in));
        int bits = c.sides().numerical().weightBits(in);
        double[][] weights = new double[groups.length][];
        for (int g = 0; g < groups.length; g++) {
            weights[g] = groups[g].length == 1 ? new double[] {1}
                    : CompressedJacobians.weights(c.settings().seed(), "two-sided:columns:" + in + ":" + g,
                            groups[g].length, bits);
        }
        c.columnGroups(in, new GroupBatches.Groups(c.sides().numerical(), in, groups, weights));
        GroupBatches.run(c.columnGroups(in), c.batch(), c.screen(), c.threads(), (g, values) -> attribute(g,
                groups[g], c.sides().numerical().applied(in, groups[g], weights[g]), values.get(c.output())));
    }

    /** A group of columns with the weights its difference applied and its two lightest members. */
    private record ColumnGroup(int index, int[] members, double[] applied, Lightest light) {}

    private void attribute(int g, int[] members, double[] applied, double[] n) {
        boolean[] owned = new boolean[n.length];
        ColumnGroup group = new ColumnGroup(g, members, applied, Lightest.of(applied));
        int[] boxes = c.pattern().rowBoxes(e.input());
        for (int k = 0; k < members.length; k++) {
            int member = k;
            int col = members[k];
            long[] colAt = Flat.unravel(col, e.input().shape());
            WindowPattern.forEach(c.pattern().column(e.input(), col), c.pattern().outShape(), p -> take(p,
                    e.rowStart()[p] + WindowPattern.rankInRow(p, boxes, colAt), group, member, n[p], owned));
            for (int p : e.extras().ofColumn(col)) {
                take(p, e.extraAt(p, col), group, member, n[p], owned);
            }
        }
        int lightest = group.light().first();
        for (int p = 0; p < n.length; p++) {
            if (!owned[p] && n[p] != 0 && !screen.passes(0, n[p] / applied[lightest],
                    e.errors().at(p, members[lightest]))) {
                c.screen().flag("the finite differences see a dependency outside the guessed pattern: "
                        + EntryNames.row(c.output(), p) + "/d" + e.input().name() + " along columns from " + members[0],
                        new TwoSidedScreen.Suspect(false, e.index(), g, p));
            }
        }
    }

    /** Row p's value in the group's difference, as the member's entry stored at {@code at}: kept and screened. */
    private void take(int p, int at, ColumnGroup group, int member, double difference, boolean[] owned) {
        double value = difference / group.applied()[member];
        e.values().numerical(at, value);
        owned[p] = true;
        screen(p, at, group, member, value);
    }

    /**
     * Entry (p, col) by the one rule against the other side's value, and what each evaluation holds beyond it
     * as the strictest other member's value, which should be zero.
     */
    private void screen(int p, int at, ColumnGroup group, int member, double n) {
        int col = group.members()[member];
        double[] applied = group.applied();
        double a = e.values().analytic(at);
        int otherRow = c.rowGroups().strictestOther()[p];
        int otherCol = group.light().otherThan(member);
        boolean rowRestPasses = true;
        if (otherRow >= 0) {
            double rest = c.rowGroups().weightOf()[p] * (a - n) / c.rowGroups().weightOf()[otherRow];
            rowRestPasses = screen.passesAsZero(rest, () -> screen.score(rest, 0, e.errors().at(otherRow, col)));
        }
        boolean columnRestPasses = true;
        if (otherCol >= 0) {
            double rest = applied[member] * (n - a) / applied[otherCol];
            int other = group.members()[otherCol];
            columnRestPasses = screen.passesAsZero(rest, () -> screen.score(0, rest, e.errors().at(p, other)));
        }
        boolean restsPass = rowRestPasses && columnRestPasses;
        double byTolerance = screen.rule().score(a, n);
        if (restsPass && byTolerance <= NumericTuning.AGAIN_ABOVE) {
            return;
        }
        TwoSidedScreen.Flagged f = new TwoSidedScreen.Flagged(inputIndex(), group.index(), p, col, at, applied[member],
                otherCol < 0 ? -1 : group.members()[otherCol], otherCol < 0 ? 1 : applied[otherCol]);
        String what = EntryNames.entry(c.output(), p, e.input().name(), col) + ": analytic " + a + ", numerical " + n;
        if (restsPass) {
            c.screen().near(f); // near or beyond the tolerance: judged at its most precise step, as densely
        } else if (Screen.passes(screen.score(a, n, e.errors().at(p, col)))) {
            // the entry agrees: its rests may hold only its own numerical error, judged without it by SplitRests
            c.screen().spoiled(new TwoSidedScreen.Spoiled(f, !rowRestPasses, !columnRestPasses,
                    byTolerance > NumericTuning.AGAIN_ABOVE), what);
        } else {
            c.screen().entry(f, what);
        }
    }
}
