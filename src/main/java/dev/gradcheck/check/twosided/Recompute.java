package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.Lightest;
import dev.gradcheck.check.colouring.Screen;
import dev.gradcheck.check.dense.BlockJudge;
import dev.gradcheck.check.dense.KinkEntry;
import dev.gradcheck.check.numeric.KinkDetector;
import dev.gradcheck.check.numeric.MostPreciseStep;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.twosided.TwoSidedScreen.Flagged;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's last phase before its report: the entries the screen sent back, each recomputed alone as the dense
 * check computes it ({@link #run}); and the dense judge's way of taking a column's entries alone ({@link #alone}),
 * which {@link Culprits} asks too.
 */
final class Recompute {

    private Recompute() {}

    /**
     * Each entry sent back, recomputed as the dense check computes it: its row by one backward pass, its column by the
     * stencil along it alone, probed for kinks and taken at its most precise step ({@link MostPreciseStep}). What
     * its row's backward pass and its column's difference held beyond those values is what the other members of its
     * groups contributed there, which the pattern says is zero: judged so, as the strictest other member's value, at
     * a quarter of the rule. A contribution that is not zero is a value outside the guessed pattern, and a kink is
     * for the dense path's probes: either sends the target on.
     */
    static void run(TwoSidedRun c) {
        Map<Integer, Map<String, double[]>> rows = new HashMap<>();
        Map<String, List<Flagged>> byColumn = new LinkedHashMap<>();
        for (Flagged f : c.screen().entries()) {
            byColumn.computeIfAbsent(f.input() + ":" + f.col(), k -> new ArrayList<>()).add(f);
        }
        for (List<Flagged> column : byColumn.values()) {
            Entries e = c.entries(column.get(0).input());
            double[] analytic = new double[column.size()];
            for (int k = 0; k < analytic.length; k++) {
                analytic[k] = rows.computeIfAbsent(column.get(k).row(), p -> c.sides().analytic().evaluate(c.out(),
                        new int[] {p}, new double[] {1})).get(e.name())[column.get(k).col()];
            }
            if (!resolveColumn(c, e, column, analytic)) {
                return;
            }
        }
    }

    /** One column's flagged entries, their numerical side taken along the column alone, as the dense judge does. */
    private static boolean resolveColumn(TwoSidedRun c, Entries e, List<Flagged> column, double[] analytic) {
        int col = column.get(0).col();
        int[] flatRows = column.stream().mapToInt(Flagged::row).toArray();
        Alone alone = alone(c, e.index(), col, flatRows, analytic);
        boolean wrongAtKink = alone.probe().kind() == KinkDetector.Kind.WRONG_AT_KINK;
        for (int k = 0; k < flatRows.length; k++) {
            Flagged f = column.get(k);
            double n = alone.probe().values()[k];
            if (alone.probe().kinks()[k]) {
                if (!othersContributeNothingAtKink(c, e, f, analytic[k])) {
                    return false;
                }
                if (!wrongAtKink) { // left out, as the dense judge leaves it out: the backward gives a subgradient
                    e.values().exact(f.at(), analytic[k], analytic[k]);
                    e.kinks().add(f.at(), new Kinks.Tied(new KinkEntry(e.name(), f.row(), f.row(), col, col,
                            analytic[k], alone.probe().slopeMinus()[k], alone.probe().slopePlus()[k]), n));
                    continue;
                }
                e.values().exact(f.at(), analytic[k], n); // no subgradient: judged on its central difference
                alone.keep(e, k);
                continue;
            }
            if (Double.isNaN(n) || !othersContributeNothing(c, e, f, analytic[k], n)) {
                c.screen().flag(EntryNames.entry(c.out(), f.row(), e.name(), col) + " could not be recomputed alone");
                return false;
            }
            e.values().exact(f.at(), analytic[k], n);
            alone.keep(e, k);
        }
        return true;
    }

    /**
     * Entries of one column at these rows, as the dense judge takes them: along the column alone, probed for kinks,
     * and each beyond half the rule at its most precise step.
     */
    record Alone(int col, int[] rows, KinkDetector.Probe probe, MostPreciseStep.Estimate[] precise, double h) {

        /**
         * Row k into the input's entries: its value and bound at the more precise step where one was taken, else
         * the bound the probe measured.
         */
        void keep(Entries e, int k) {
            if (precise[k] != null && precise[k].step() != h) {
                e.errors().atPreciseStep(rows[k], col, precise[k].bound());
                e.values().atPreciseStep(rows[k], col, precise[k].value());
            } else if (probe.errors()[k] > 0) {
                e.errors().measured(rows[k], col, probe.errors()[k]);
            }
        }
    }

    /** Column {@code col} of input {@code index} at these rows, alone ({@link Alone}); kinks are the probe's. */
    static Alone alone(TwoSidedRun c, int index, int col, int[] flatRows, double[] analytic) {
        Entries e = c.entries(index);
        String in = e.name();
        String out = c.out();
        NumericalDerivative d = c.sides().numerical().derivative(in);
        KinkDetector.Line line = new BlockJudge.Columns(d, in, out).line(col);
        double h = d.stepAt(in, col);
        KinkDetector.Probe probe = KinkDetector.probe(line, h, flatRows, analytic, c.target().scale(out),
                d.stencil());
        NumericalError.Block block = e.errors();
        MostPreciseStep.Estimate[] atH = new MostPreciseStep.Estimate[flatRows.length];
        for (int k = 0; k < atH.length; k++) {
            if (probe.kinks()[k]) {
                return new Alone(col, flatRows, probe, new MostPreciseStep.Estimate[flatRows.length], h);
            }
            atH[k] = MostPreciseStep.Estimate.of(probe, k, block.rounding(flatRows[k], col), h);
        }
        MostPreciseStep.Estimate[] precise = MostPreciseStep.choose(line, h,
                new MostPreciseStep.Rows(flatRows, analytic), atH, c.target().scale(out), d.stencil());
        return new Alone(col, flatRows, probe, precise, h);
    }

    /**
     * At a kink the column's difference alone and its group's straddle the kink with different steps, so what the
     * other members contributed cannot be read as their difference. It is taken directly instead: the group's
     * difference without this column, at this row, judged against zero as the rests are (the pattern says every
     * other member contributes nothing here). The row's side is the backward's, untouched by kinks.
     */
    private static boolean othersContributeNothingAtKink(TwoSidedRun c, Entries e, Flagged f, double a) {
        Screen rule = c.screen(e.index());
        String in = e.name();
        int p = f.row();
        double byColumns = 0;
        if (f.otherCol() >= 0) {
            GroupBatches.Groups groups = c.columns().get(in);
            Rest rest = Rest.without(groups.lines()[f.group()], groups.weights()[f.group()], f.col());
            double[] applied = c.sides().numerical().applied(in, rest.lines(), rest.weights());
            int lightest = Lightest.of(applied).first();
            int coarsest = ColumnPass.coarsest(c, in, rest.lines()).first();
            double value = c.sides().numerical().evaluate(in, rest.lines(), rest.weights()).get(c.out())[p];
            byColumns = rule.score(0, value / applied[lightest], e.errors().at(p, rest.lines()[coarsest]));
        }
        if (!(Screen.passes(byRows(c, e, rule, f, a)) && Screen.passes(byColumns))) {
            c.screen().flag("other members contribute to " + EntryNames.entry(c.out(), p, in, f.col())
                    + ", which sits at a kink: a value outside the guessed pattern");
            return false;
        }
        return true;
    }

    /** A column group's other members and their weights. */
    private record Rest(int[] lines, double[] weights) {
        static Rest without(int[] members, double[] weights, int col) {
            int[] lines = new int[members.length - 1];
            double[] w = new double[members.length - 1];
            for (int k = 0, j = 0; k < members.length; k++) {
                if (members[k] != col) {
                    lines[j] = members[k];
                    w[j++] = weights[k];
                }
            }
            return new Rest(lines, w);
        }
    }

    private static boolean othersContributeNothing(TwoSidedRun c, Entries e, Flagged f, double a, double n) {
        Screen rule = c.screen(e.index());
        int p = f.row();
        double byColumns = f.otherCol() < 0 ? 0 : rule.score(0,
                f.colWeight() * (e.values().numerical(f.at()) - n) / f.otherWeight(), e.errors().at(p, f.boundCol()));
        if (!(Screen.passes(byRows(c, e, rule, f, a)) && Screen.passes(byColumns))) {
            c.screen().flag("other members contribute to " + EntryNames.entry(c.out(), p, e.name(), f.col())
                    + ": a value outside the guessed pattern");
            return false;
        }
        return true;
    }

    /**
     * What the other rows of the entry's row group put at its column, beyond the backward's value alone {@code a}:
     * the strictest other row's value there, which the pattern says is zero, with the quietest other row's bound.
     */
    private static double byRows(TwoSidedRun c, Entries e, Screen rule, Flagged f, double a) {
        int p = f.row();
        RowGroups rowGroups = c.rowGroups();
        int otherRow = rowGroups.strictestOther()[p];
        return otherRow < 0 ? 0 : rule.score(
                rowGroups.weightOf()[p] * (e.values().analytic(f.at()) - a) / rowGroups.weightOf()[otherRow], 0,
                e.errors().at(rowGroups.quietestOther()[p], f.col()));
    }
}
