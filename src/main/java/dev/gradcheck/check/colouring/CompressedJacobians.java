package dev.gradcheck.check.colouring;

import dev.gradcheck.check.jacobian.AnalyticJacobian;
import dev.gradcheck.check.jacobian.JacobianSide;
import dev.gradcheck.check.jacobian.NumericalJacobian;
import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.numeric.Seeded;
import dev.gradcheck.check.numeric.SparseBlock;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Every Jacobian block of a target at the cost of one side plus a few evaluations of the other (Curtis, Powell and
 * Reid), made sound for checking. One side (the <em>known</em> side) is computed line by line in full; its pattern of
 * nonzeros groups the lines of the other (the <em>compressed</em> side) whose supports do not overlap
 * ({@link Colouring}), and each group costs one evaluation along Σ w_l·e_l, with w_l a seeded random weight in [1, 2]
 * per member (the numerical side scales each by its column's own step: {@link JacobianSide#applied}). Each entry of
 * that evaluation belongs to at most one member's known nonzero (its owner), so the entry, divided by the owner's
 * applied weight, is the owner's value: it is judged against the owner's known value by the one per-entry rule
 * ({@link JacobianComparison#score}: the block's tolerance and the owner entry's own finite-difference error bound),
 * and what is left once the owner's weighted known value is taken away is judged as the value of the strictest other
 * member (whose known value is 0), with that member's own bound. Either judgement failing the {@link Screen} (a quarter
 * of the tolerance) sends the whole group back to be evaluated line by line (the dense evaluation), so an entry that
 * disagrees is always judged on its own values.
 *
 * <p>Why a wrong backward cannot pass: docs/checking.md ("Compressed Jacobians").
 */
public final class CompressedJacobians {

    /** Which side is compressed. */
    enum Compressed { ANALYTIC, NUMERICAL }

    /**
     * How the entries of block (out, in) are judged: the rule, given the block's scale (its largest known
     * derivative), and the numerical side's error bound per entry, by flat output and input index.
     */
    public interface Judging {
        Tolerance rule(String out, String in, double blockScale);

        /** Whether {@link #rule} is one rule whatever the scale: then entries can be judged as they come. */
        boolean ruleIgnoresScale(String out, String in);

        NumericalError errors(String out, String in);
    }

    private final JacobianSide known;
    private final JacobianSide compressed;
    private final Compressed which;
    private final Judging judging;
    private final long seed;
    /** unit of the compressed side -> cross unit -> its block's lines: the known side's nonzeros, then ours. */
    private final Map<String, Map<String, SparseLines>> knownLines = new HashMap<>();
    private final Map<String, Map<String, SparseLines>> compressedLines = new HashMap<>();
    /** Each known block's largest magnitude, the scale of its rule: the known side does not change once computed. */
    private final Map<SparseLines, Double> knownScales = new java.util.IdentityHashMap<>();
    private final ParallelLines threads;
    /** Seconds per side and unit: each phase's wall time shared out by the units' share of the work. */
    private final Map<JacobianSide, Map<String, Double>> seconds = new HashMap<>();
    private int groups;
    private int recomputedGroups;

    private CompressedJacobians(JacobianSide known, JacobianSide compressed, Compressed which, Judging judging,
                                long seed, ParallelLines threads) {
        this.known = known;
        this.compressed = compressed;
        this.which = which;
        this.judging = judging;
        this.seed = seed;
        this.threads = threads;
    }

    /**
     * Why the blocks must be dense, or null when they can be compressed.
     *
     * @param clipped whether the reference is split at error clips
     * @param rule    the loosest rule any output of the check is judged by, at magnitude 1 (or the spec's own)
     */
    public static String denseBecause(Settings s, boolean clipped, Tolerance rule) {
        if (!s.compress()) {
            return "compress: false";
        }
        if (s.maxElements() != null) {
            // the sample bounds the cost already, and its rows are chosen from the numerical block's columns
            return "max_elements samples the blocks";
        }
        if (clipped) {
            // each row's gradient is clipped on its own, so the backward is not linear in its cotangent, and the
            // reference split at the clips gives whole blocks only
            return "error clips";
        }
        if (!s.mask().isEmpty()) {
            // masked entries are left out of judging one by one; a compressed entry mixes a group's members
            return "a mask leaves entries out";
        }
        if (!(rule.score(1 + ColouringTuning.RESOLUTION, 1) > 1)) {
            return "a tolerance this loose cannot tell random weights apart";
        }
        return null;
    }

    /**
     * The side to compute in full: the cheaper by estimate (a forward evaluation per stencil point and input element
     * against {@link ColouringTuning#BACKWARD_COST} per output element), the compressed side's few evaluations aside.
     * The analytic side is compressed only where its cotangents carry float32 weights or better.
     */
    public static Compressed choose(AnalyticJacobian analytic, NumericalJacobian numerical, int stencilPoints) {
        double forwards = 0;
        for (String in : numerical.units()) {
            forwards += (double) stencilPoints * numerical.lineCount(in);
        }
        double backwards = 0;
        boolean preciseCotangents = true;
        for (String out : analytic.units()) {
            backwards += ColouringTuning.BACKWARD_COST * analytic.lineCount(out);
            preciseCotangents &= analytic.weightBits(out) >= 23;
        }
        return forwards <= backwards && preciseCotangents ? Compressed.ANALYTIC : Compressed.NUMERICAL;
    }

    /**
     * The blocks, output -> input -> entries, with what they cost.
     *
     * @param analyticSeconds  per output, the seconds its backward passes took
     * @param numericalSeconds per input, the seconds its forward evaluations took
     * @param groups           groups evaluated along weighted lines
     * @param recomputedGroups of those, the groups evaluated again line by line
     */
    public record Blocks(Map<String, Map<String, SparseBlock>> byOutput, Map<String, Double> analyticSeconds,
                  Map<String, Double> numericalSeconds, int groups, int recomputedGroups) {

        public SparseBlock block(String out, String in) {
            return byOutput.get(out).get(in);
        }
    }

    /** The blocks, with {@code which} side compressed and the other computed in full. */
    public static Blocks compute(AnalyticJacobian analytic, NumericalJacobian numerical, Compressed which,
                          Judging judging, long seed, ParallelLines threads) {
        CompressedJacobians c = which == Compressed.ANALYTIC
                ? new CompressedJacobians(numerical, analytic, which, judging, seed, threads)
                : new CompressedJacobians(analytic, numerical, which, judging, seed, threads);
        c.computeKnown();
        c.computeCompressed();
        Map<String, Map<String, SparseBlock>> byOutput = new LinkedHashMap<>();
        for (String out : analytic.units()) {
            Map<String, SparseBlock> byInput = new LinkedHashMap<>();
            for (String in : numerical.units()) {
                byInput.put(in, c.block(out, in, numerical.outputShape(out), numerical.inputShape(in)));
            }
            byOutput.put(out, byInput);
        }
        return new Blocks(byOutput, c.seconds.getOrDefault(analytic, Map.of()),
                c.seconds.getOrDefault(numerical, Map.of()), c.groups, c.recomputedGroups);
    }

    /** One evaluation of a side: a unit's lines with their weights. */
    private record Task(String unit, int[] lines, double[] weights) {}

    /**
     * Evaluates tasks of one side (on several threads when the work is long enough), each result passed through
     * {@code keep} on the thread that computed it, and books the phase's time to the tasks' units.
     */
    private <R> List<R> evaluate(JacobianSide side, List<Task> tasks,
                                 java.util.function.Function<Map<String, double[]>, R> keep) {
        Meter start = Meter.timing();
        long[] taskNanos = new long[tasks.size()];
        List<R> results = threads.run(tasks.size(), new Evaluations<>(side, tasks, keep, taskNanos));
        double wall = start.seconds();
        double total = java.util.Arrays.stream(taskNanos).sum();
        Map<String, Double> bySide = seconds.computeIfAbsent(side, k -> new HashMap<>());
        for (int k = 0; k < tasks.size(); k++) {
            double share = total == 0 ? 1.0 / tasks.size() : taskNanos[k] / total;
            bySide.merge(tasks.get(k).unit(), wall * share, Double::sum);
        }
        return results;
    }

    private record Evaluations<R>(JacobianSide side, List<Task> tasks,
                                  java.util.function.Function<Map<String, double[]>, R> keep, long[] taskNanos)
            implements ParallelLines.Evaluator<R> {
        @Override
        public R evaluate(int k) {
            Meter start = Meter.timing();
            Task t = tasks.get(k);
            R r = keep.apply(side.evaluate(t.unit(), t.lines(), t.weights()));
            taskNanos[k] = start.nanos();
            return r;
        }

        @Override
        public Evaluations<R> copy(ParallelLines.Copies copies) {
            return new Evaluations<>(side.copy(copies), tasks, keep, taskNanos);
        }

        @Override
        public List<Differentiable> functions() {
            return side.functions();
        }
    }

    /** The nonzeros of each vector of an evaluation, by unit. */
    private static Map<String, Nonzeros> nonzeros(Map<String, double[]> evaluated) {
        Map<String, Nonzeros> byUnit = new HashMap<>();
        evaluated.forEach((unit, v) -> byUnit.put(unit, Nonzeros.of(v)));
        return byUnit;
    }

    /** The known side line by line, kept as the nonzeros of each block, by the compressed side's lines. */
    private void computeKnown() {
        for (String unit : compressed.units()) {
            Map<String, SparseLines> byCross = new HashMap<>();
            for (String cross : compressed.crossUnits()) {
                byCross.put(cross, new SparseLines(compressed.lineCount(unit)));
            }
            knownLines.put(unit, byCross);
        }
        List<Task> tasks = new ArrayList<>();
        for (String knownUnit : known.units()) {
            for (int q = 0; q < known.lineCount(knownUnit); q++) {
                tasks.add(new Task(knownUnit, new int[] {q}, new double[] {1}));
            }
        }
        // each line's vectors go back to the side once their nonzeros are copied out: at small sizes the known side's
        // vectors were a fifth of a run's garbage (53 of 239 MB in the 48-spec suite, 2026-11-29)
        List<Map<String, Nonzeros>> lines = evaluate(known, tasks, values -> {
            Map<String, Nonzeros> kept = nonzeros(values);
            known.giveBack(values);
            return kept;
        });
        for (int k = 0; k < tasks.size(); k++) {
            String knownUnit = tasks.get(k).unit();
            int q = tasks.get(k).lines()[0];
            for (String unit : compressed.units()) {
                int[] at = lines.get(k).get(unit).at();
                double[] values = lines.get(k).get(unit).values();
                SparseLines block = knownLines.get(unit).get(knownUnit);
                for (int e = 0; e < at.length; e++) {
                    block.add(at[e], q, values[e]);
                }
            }
        }
    }

    /**
     * The compressed side: every unit's groups evaluated once, screened, and the groups that fail the screen
     * evaluated again line by line.
     */
    private void computeCompressed() {
        List<Task> tasks = new ArrayList<>();
        for (String unit : compressed.units()) {
            Map<String, SparseLines> ours = new HashMap<>();
            compressed.crossUnits().forEach(cross -> ours.put(cross, new SparseLines(compressed.lineCount(unit))));
            compressedLines.put(unit, ours);
            int[][] groupsOfUnit = zeroGradientNeedsEveryColumn(unit) ? Colouring.alone(compressed.lineCount(unit))
                    : colour(unit);
            for (int g = 0; g < groupsOfUnit.length; g++) {
                int[] members = groupsOfUnit[g];
                double[] w = members.length == 1 ? new double[] {1}
                        : weights(unit, g, members.length, compressed.weightBits(unit));
                tasks.add(new Task(unit, members, w));
            }
        }
        List<Map<String, double[]>> measured = evaluate(compressed, tasks, v -> v);
        List<Task> again = new ArrayList<>();
        for (int k = 0; k < tasks.size(); k++) {
            Task t = tasks.get(k);
            if (t.lines().length == 1) {
                keepLine(t.unit(), t.lines()[0], measured.get(k));
            } else if (!screened(t, measured.get(k))) {
                for (int l : t.lines()) {
                    again.add(new Task(t.unit(), new int[] {l}, new double[] {1}));
                }
            }
            measured.set(k, null);
        }
        List<Map<String, double[]>> lines = evaluate(compressed, again, v -> v);
        for (int k = 0; k < again.size(); k++) {
            keepLine(again.get(k).unit(), again.get(k).lines()[0], lines.get(k));
        }
    }

    private void keepLine(String unit, int line, Map<String, double[]> values) {
        compressed.crossUnits().forEach(cross -> compressedLines.get(unit).get(cross).set(line, values.get(cross)));
    }

    /** Groups of the unit's lines whose known supports (over every cross unit's block) do not overlap. */
    private int[][] colour(String unit) {
        List<String> crosses = compressed.crossUnits();
        Map<String, SparseLines> knownOfUnit = knownLines.get(unit);
        int lines = compressed.lineCount(unit);
        int[] offsets = new int[crosses.size() + 1];
        for (int v = 0; v < crosses.size(); v++) {
            offsets[v + 1] = offsets[v] + compressed.crossLength(crosses.get(v));
        }
        int[][] supports = new int[lines][];
        for (int l = 0; l < lines; l++) {
            int size = 0;
            for (String cross : crosses) {
                size += knownOfUnit.get(cross).size(l);
            }
            int[] support = new int[size];
            int k = 0;
            for (int v = 0; v < crosses.size(); v++) {
                SparseLines block = knownOfUnit.get(crosses.get(v));
                for (int e = 0; e < block.size(l); e++) {
                    support[k++] = offsets[v] + block.position(l, e);
                }
            }
            supports[l] = support;
        }
        return Colouring.groups(supports, offsets[crosses.size()]);
    }

    /**
     * With the analytic side known, an input whose analytic block is entirely zero for some output is differentiated
     * column by column: the zero-gradient rule weighs every numerical entry against the noise floor, and a
     * compressed entry would weigh a sum of them.
     */
    private boolean zeroGradientNeedsEveryColumn(String unit) {
        if (which != Compressed.NUMERICAL) {
            return false;
        }
        for (String cross : compressed.crossUnits()) {
            if (knownLines.get(unit).get(cross).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Screens every entry of one group's evaluation; keeps the attributed values when all pass.
     *
     * @return false when the group must be evaluated again line by line
     */
    private boolean screened(Task t, Map<String, double[]> measured) {
        groups++;
        Weighed group = Weighed.of(t.lines(), compressed.applied(t.unit(), t.lines(), t.weights()));
        List<Attribution> attributed = new ArrayList<>();
        for (String cross : compressed.crossUnits()) {
            if (!blockPassesScreen(t.unit(), group, cross, measured.get(cross), attributed)) {
                recomputedGroups++;
                return false;
            }
        }
        for (Attribution a : attributed) {
            compressedLines.get(t.unit()).get(a.cross()).add(a.line(), a.position(), a.value());
        }
        return true;
    }

    /** A group's members with the weights its evaluation applied to them, and its two lightest members. */
    private record Weighed(int[] members, double[] w, Lightest light) {

        static Weighed of(int[] members, double[] w) {
            return new Weighed(members, w, Lightest.of(w));
        }
    }

    /**
     * Screens the entries of one group's evaluation that fall in one cross unit's block, adding each entry's value,
     * attributed to its owner (or, where no member has a known nonzero, to the lightest member), to
     * {@code attributed}.
     *
     * @param c the evaluation's values in that block
     * @return false as soon as an entry fails the screen
     */
    private boolean blockPassesScreen(String unit, Weighed group, String cross, double[] c,
                                      List<Attribution> attributed) {
        String out = which == Compressed.ANALYTIC ? unit : cross;
        String in = which == Compressed.ANALYTIC ? cross : unit;
        SparseLines block = knownLines.get(unit).get(cross);
        Tolerance rule = judging.rule(out, in, knownScales.computeIfAbsent(block, SparseLines::largestMagnitude));
        NumericalError errors = judging.errors(out, in);
        Owners owners = Owners.of(block, group.members(), c.length);
        int[] members = group.members();
        double[] w = group.w();
        for (int p = 0; p < c.length; p++) {
            int o = owners.member()[p];
            if (o < 0 && c[p] == 0) {
                continue; // zero against zero for every member
            }
            double ownerScore = 0;
            double rest = c[p];
            int strictest = group.light().first();
            if (o >= 0) {
                double value = c[p] / w[o];
                ownerScore = score(rule, value, owners.value()[p], bound(errors, members[o], p));
                rest = c[p] - w[o] * owners.value()[p];
                strictest = group.light().otherThan(o);
                attributed.add(new Attribution(cross, members[o], p, value));
            } else {
                attributed.add(new Attribution(cross, members[group.light().first()], p,
                        c[p] / w[group.light().first()]));
            }
            double restScore = score(rule, rest / w[strictest], 0, bound(errors, members[strictest], p));
            if (!(Screen.passes(ownerScore) && Screen.passes(restScore))) { // NaN too
                return false;
            }
        }
        return true;
    }

    /**
     * Per position of a cross unit's block, the group member whose known nonzero it is (-1: none) and that known
     * value: the members' supports do not overlap, so each position has at most one.
     */
    private record Owners(int[] member, double[] value) {

        static Owners of(SparseLines block, int[] members, int positions) {
            int[] owner = new int[positions];
            java.util.Arrays.fill(owner, -1);
            double[] ownerValue = new double[positions];
            for (int k = 0; k < members.length; k++) {
                for (int e = 0; e < block.size(members[k]); e++) {
                    owner[block.position(members[k], e)] = k;
                    ownerValue[block.position(members[k], e)] = block.value(members[k], e);
                }
            }
            return new Owners(owner, ownerValue);
        }
    }

    private record Attribution(String cross, int line, int position, double value) {}

    /**
     * The one per-entry rule, with the compressed side's value in its place (analytic or numerical), and the bound
     * of the entry the value stands for: the dense check's own bound for it, never a wider one (docs/checking.md,
     * "Compressed Jacobians": a wider bound here could pass a group whose dense values fail).
     */
    private double score(Tolerance rule, double compressedValue, double knownValue, double bound) {
        return which == Compressed.ANALYTIC ? JacobianComparison.score(rule, compressedValue, knownValue, bound)
                : JacobianComparison.score(rule, knownValue, compressedValue, bound);
    }

    /** The numerical error bound of the entry of compressed line {@code line} at position {@code p}. */
    private double bound(NumericalError errors, int line, int p) {
        return which == Compressed.ANALYTIC ? errors.at(line, p) : errors.at(p, line);
    }

    /**
     * Distinct seeded weights in [1, 2] for a group's members, on the grid 1 + j·2^-bits so that the evaluation
     * applies each exactly.
     */
    private double[] weights(String unit, int g, int count, int bits) {
        return weights(seed, "compress:" + which + ":" + unit + ":" + g, count, bits);
    }

    /** Distinct seeded weights in [1, 2] on the grid 1 + j·2^-bits, drawn from the stream {@code label}. */
    public static double[] weights(long seed, String label, int count, int bits) {
        SplittableRandom rnd = Seeded.stream(seed, label);
        long steps = 1L << bits;
        double[] w = new double[count];
        Set<Long> used = new HashSet<>();
        for (int k = 0; k < count; k++) {
            long j;
            do {
                j = rnd.nextLong(steps + 1);
            } while (!used.add(j));
            w[k] = 1 + j / (double) steps;
        }
        return w;
    }

    /** The entries of block (out, in): the known side's nonzeros and the compressed side's, merged by position. */
    private SparseBlock block(String out, String in, long[] outputShape, long[] inputShape) {
        String unit = which == Compressed.ANALYTIC ? out : in;
        String cross = which == Compressed.ANALYTIC ? in : out;
        SparseLines k = knownLines.get(unit).get(cross);
        SparseLines c = compressedLines.get(unit).get(cross);
        NumericalError errors = judging.errors(out, in);
        long least = 0; // where one side's positions hold the other's (most blocks), exactly the entries added
        for (int l = 0; l < k.lineCount(); l++) {
            least += Math.max(k.size(l), c.size(l));
        }
        SparseBlock.Builder b = new SparseBlock.Builder(outputShape, inputShape,
                (int) Math.min(least, Integer.MAX_VALUE - 8));
        for (int l = 0; l < k.lineCount(); l++) {
            int i = 0;
            int j = 0;
            while (i < k.size(l) || j < c.size(l)) {
                int pk = i < k.size(l) ? k.position(l, i) : Integer.MAX_VALUE;
                int pc = j < c.size(l) ? c.position(l, j) : Integer.MAX_VALUE;
                int p = Math.min(pk, pc);
                double kv = pk == p ? k.value(l, i++) : 0;
                double cv = pc == p ? c.value(l, j++) : 0;
                if (which == Compressed.ANALYTIC) {
                    b.add(l, p, cv, kv, errors.at(l, p));
                } else {
                    b.add(p, l, kv, cv, errors.at(p, l));
                }
            }
        }
        return b.build();
    }
}
