package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.Screen;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.twosided.TwoSidedScreen.Flagged;
import dev.gradcheck.check.twosided.TwoSidedScreen.Spoiled;
import dev.gradcheck.check.twosided.TwoSidedScreen.Suspect;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Rests that the owner's own numerical error spoils, settled without it. A rest is what a group's evaluation holds
 * beyond its owner's share, that share taken from the other side's value: where the owner's derivative is large
 * (exp at 18: 6.6e7, its difference off by 2e-3 from rounding and truncation, 5e-11 of it), that value's error alone
 * exceeds what the other members, whose values should be zero, are allowed (1e-6), and the rest fails while every
 * entry is right. The other members' values are then read off evaluations that leave the owner out: for each bit b
 * of a member's position in its group, one evaluation over the members whose bit b is 0 and one over those whose bit
 * is 1. Every other member differs from the owner in some bit, so each lies in an evaluation without the owner,
 * whose value at the owner's position should be zero, with no numerical error of the owner in it: judged so, as the
 * value of that half's lightest member with the strictest bound among its members, at a quarter of the rule, as
 * every rest is. A value that is not zero is a value outside the pattern, for {@link Culprits}; where all are zero,
 * the entry goes on as one whose rests were clean. Cost: 2·⌈log₂ k⌉ evaluations per group of k lines that has such
 * an entry (32 backward passes and 32 differences for an elementwise op on [256, 256]).
 */
final class SplitRests {

    private final TwoSidedRun c;

    private SplitRests(TwoSidedRun c) {
        this.c = c;
    }

    /** The run's spoiled entries ({@link TwoSidedScreen#spoiled}), settled or sent back as values outside. */
    static void settle(TwoSidedRun run) {
        new SplitRests(run).settle(run.screen().spoiled());
    }

    private void settle(List<Spoiled> spoiled) {
        int[] rowGroupOf = rowGroupOf();
        Map<Integer, List<Flagged>> byRowGroup = new LinkedHashMap<>();
        Map<String, List<Flagged>> byColumnGroup = new LinkedHashMap<>();
        for (Spoiled s : spoiled) {
            if (s.rows()) {
                byRowGroup.computeIfAbsent(rowGroupOf[s.entry().row()], g -> new ArrayList<>()).add(s.entry());
            }
            if (s.columns()) {
                byColumnGroup.computeIfAbsent(s.entry().input() + ":" + s.entry().group(), k -> new ArrayList<>())
                        .add(s.entry());
            }
        }
        byRowGroup.forEach(this::rowHalves);
        byColumnGroup.values().forEach(this::columnHalves);
        if (c.screen().clean()) {
            spoiled.stream().filter(Spoiled::near).forEach(s -> c.screen().near(s.entry()));
        }
    }

    private int[] rowGroupOf() {
        int[][] groups = c.rowGroups().groups();
        int[] of = new int[c.pattern().rows()];
        for (int g = 0; g < groups.length; g++) {
            for (int p : groups[g]) {
                of[p] = g;
            }
        }
        return of;
    }

    /** The halves of row group g, each a backward pass; each entry judged in the halves without its row. */
    private void rowHalves(int g, List<Flagged> entries) {
        Halves halves = Halves.of(c.rowGroups().groups()[g], c.rowGroups().weights()[g]);
        double[] magnitudes = c.target().magnitudes(c.out());
        GroupBatches.Groups passes = new GroupBatches.Groups(c.sides().analytic(), c.out(), halves.lines(),
                halves.weights());
        GroupBatches.run(passes, c.batch(), c.screen(), c.threads(), (half, values) -> {
            int[] lines = halves.lines()[half];
            int quietest = lines[0];
            for (int p : lines) {
                quietest = magnitudes[p] < magnitudes[quietest] ? p : quietest;
            }
            double lightest = min(halves.weights()[half]);
            for (Flagged f : entries) {
                if (halves.leavesOut(half, f.row())) {
                    double value = values.get(c.entries(f.input()).name())[f.col()] / lightest;
                    NumericalError.Block errors = c.entries(f.input()).errors();
                    judge(f, value, errors.rounding(quietest, f.col()), new Suspect(true, f.input(), g, f.col()));
                }
            }
        });
    }

    /** The halves of one column group, each a difference; each entry judged in the halves without its column. */
    private void columnHalves(List<Flagged> entries) {
        Flagged first = entries.get(0);
        String in = c.entries(first.input()).name();
        GroupBatches.Groups groups = c.columns().get(in);
        Halves halves = Halves.of(groups.lines()[first.group()], groups.weights()[first.group()]);
        NumericalDerivative d = c.sides().numerical().derivative(in);
        GroupBatches.Groups differences = new GroupBatches.Groups(c.sides().numerical(), in, halves.lines(),
                halves.weights());
        GroupBatches.run(differences, c.batch(), c.screen(), c.threads(), (half, values) -> {
            int[] lines = halves.lines()[half];
            int coarsest = lines[0];
            for (int l : lines) {
                coarsest = d.stepAt(in, l) > d.stepAt(in, coarsest) ? l : coarsest;
            }
            double lightest = min(c.sides().numerical().applied(in, lines, halves.weights()[half]));
            double[] n = values.get(c.out());
            for (Flagged f : entries) {
                if (halves.leavesOut(half, f.col())) {
                    judge(f, n[f.row()] / lightest, c.entries(f.input()).errors().rounding(f.row(), coarsest),
                            new Suspect(false, f.input(), first.group(), f.row()));
                }
            }
        });
    }

    /** A value the pattern says is zero, at a quarter of the rule with the strictest bound of its half. */
    private void judge(Flagged f, double value, double bound, Suspect where) {
        Screen screen = c.screen(f.input());
        if (!screen.passesAsZero(value, () -> screen.score(value, 0, bound))) {
            c.screen().flag("with the owner left out, other members hold " + value + " at "
                    + EntryNames.entry(c.out(), f.row(), c.entries(f.input()).name(), f.col())
                    + ": a value outside the guessed pattern", where);
        }
    }

    /** How many evaluations the halves of a group of k lines are: two per bit of a member's position. */
    static int halves(int k) {
        return 2 * Math.max(1, 32 - Integer.numberOfLeadingZeros(k - 1));
    }

    private static double min(double[] w) {
        double m = Double.POSITIVE_INFINITY;
        for (double v : w) {
            m = Math.min(m, v);
        }
        return m;
    }

    /**
     * A group's halves by the bits of its members' positions: half 2·b + h holds the members whose bit b is h.
     *
     * @param position each member's position in the group, by its line
     */
    private record Halves(int[][] lines, double[][] weights, Map<Integer, Integer> position) {

        static Halves of(int[] members, double[] weights) {
            int bits = halves(members.length) / 2;
            int[][] lines = new int[2 * bits][];
            double[][] w = new double[2 * bits][];
            for (int half = 0; half < 2 * bits; half++) {
                int b = half / 2;
                int h = half % 2;
                int[] at = IntStream.range(0, members.length).filter(k -> ((k >> b) & 1) == h).toArray();
                lines[half] = IntStream.of(at).map(k -> members[k]).toArray();
                w[half] = IntStream.of(at).mapToDouble(k -> weights[k]).toArray();
            }
            Map<Integer, Integer> position = new HashMap<>();
            for (int k = 0; k < members.length; k++) {
                position.put(members[k], k);
            }
            return new Halves(lines, w, position);
        }

        /** Whether a half leaves the line out (a half of no lines leaves out every line, and holds nothing). */
        boolean leavesOut(int half, int line) {
            return lines[half].length > 0 && ((position.get(line) >> (half / 2)) & 1) != half % 2;
        }
    }
}
