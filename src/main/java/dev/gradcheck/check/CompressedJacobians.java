package dev.gradcheck.check;

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
 * Reid), made sound for checking. One side (the <em>known</em> side) is computed line by line in full; its pattern
 * of nonzeros groups the lines of the other (the <em>compressed</em> side) whose supports do not overlap
 * ({@link Colouring}), and each group costs one evaluation along Σ w_l·e_l, with w_l a seeded random weight in
 * [1, 2] per member. Each entry of that evaluation belongs to at most one member's known nonzero (its owner), so
 * the entry, divided by the owner's weight, is the owner's value: it is judged against the owner's known value by
 * the one per-entry rule ({@link Tolerance#score}), and what is left once the owner's weighted known value is taken
 * away is judged as the value of the strictest other member (whose known value is 0). Either judgement scoring
 * above {@link #SCREEN} sends the whole group back to be evaluated line by line (the dense evaluation), so an entry
 * that disagrees is always judged on its own values.
 *
 * <p>Why a wrong backward cannot pass: docs/checking.md ("Compressed Jacobians").
 */
final class CompressedJacobians {

    /**
     * A group is evaluated again line by line when an entry attributed to one of its members scores above this
     * (a quarter of what the tolerance allows): well below a failure, so that a disagreement near the tolerance is
     * judged on dense values, and well above the rounding of a correct backward.
     */
    static final double SCREEN = 0.25;

    /** What one backward pass costs, in forward evaluations, for choosing the side computed in full. */
    static final double BACKWARD_COST = 1.5;

    /**
     * Compression needs a rule that fails a relative difference this large at magnitude 1 (the default tolerances
     * of float64 and float32 do; float16's and bfloat16's do not): random weights differ by less than the
     * tolerance too often for a looser rule to tell a swap of two entries from their right order.
     */
    static final double RESOLUTION = 2e-3;

    /** Which side is compressed. */
    enum Compressed { ANALYTIC, NUMERICAL }

    private final JacobianSide known;
    private final JacobianSide compressed;
    private final Compressed which;
    private final Tolerance tolerance;
    private final long seed;
    /** unit of the compressed side -> cross unit -> its block's lines: the known side's nonzeros, then ours. */
    private final Map<String, Map<String, SparseLines>> knownLines = new HashMap<>();
    private final Map<String, Map<String, SparseLines>> compressedLines = new HashMap<>();
    private final Map<JacobianSide, Map<String, Long>> nanos = new HashMap<>();
    private int groups;
    private int recomputedGroups;

    private CompressedJacobians(JacobianSide known, JacobianSide compressed, Compressed which, Tolerance tolerance,
                                long seed) {
        this.known = known;
        this.compressed = compressed;
        this.which = which;
        this.tolerance = tolerance;
        this.seed = seed;
    }

    /**
     * Why the blocks must be dense, or null when they can be compressed.
     *
     * @param clipped whether the reference is split at error clips
     */
    static String denseBecause(Settings s, boolean clipped) {
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
        if (s.capture() != dev.gradcheck.result.JacobianCapture.NONE) {
            return "the run asked for the matrices";
        }
        if (!(s.tolerance().score(1 + RESOLUTION, 1) > 1)) {
            return "a tolerance this loose cannot tell random weights apart";
        }
        return null;
    }

    /**
     * The side to compute in full: the cheaper by estimate (a forward evaluation per stencil point and input
     * element against {@link #BACKWARD_COST} per output element), the compressed side's few evaluations aside. The
     * analytic side is compressed only where its cotangents carry float32 weights or better.
     */
    static Compressed choose(AnalyticJacobian analytic, NumericalJacobian numerical, int stencilPoints) {
        double forwards = 0;
        for (String in : numerical.units()) {
            forwards += (double) stencilPoints * numerical.lineCount(in);
        }
        double backwards = 0;
        boolean preciseCotangents = true;
        for (String out : analytic.units()) {
            backwards += BACKWARD_COST * analytic.lineCount(out);
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
    record Blocks(Map<String, Map<String, SparseBlock>> byOutput, Map<String, Double> analyticSeconds,
                  Map<String, Double> numericalSeconds, Compressed which, int groups, int recomputedGroups) {

        SparseBlock block(String out, String in) {
            return byOutput.get(out).get(in);
        }
    }

    static Blocks compute(AnalyticJacobian analytic, NumericalJacobian numerical, Compressed which,
                          Tolerance tolerance, long seed, Map<String, long[]> outputShapes,
                          Map<String, long[]> inputShapes) {
        CompressedJacobians c = which == Compressed.ANALYTIC
                ? new CompressedJacobians(numerical, analytic, which, tolerance, seed)
                : new CompressedJacobians(analytic, numerical, which, tolerance, seed);
        c.computeKnown();
        for (String unit : c.compressed.units()) {
            c.computeCompressed(unit);
        }
        Map<String, Map<String, SparseBlock>> byOutput = new LinkedHashMap<>();
        for (String out : analytic.units()) {
            Map<String, SparseBlock> byInput = new LinkedHashMap<>();
            for (String in : numerical.units()) {
                byInput.put(in, c.block(out, in, outputShapes.get(out), inputShapes.get(in)));
            }
            byOutput.put(out, byInput);
        }
        return new Blocks(byOutput, c.seconds(analytic), c.seconds(numerical), which, c.groups, c.recomputedGroups);
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
        for (String knownUnit : known.units()) {
            for (int q = 0; q < known.lineCount(knownUnit); q++) {
                Map<String, double[]> line = evaluate(known, knownUnit, new int[] {q}, new double[] {1});
                for (String unit : compressed.units()) {
                    double[] values = line.get(unit);
                    SparseLines lines = knownLines.get(unit).get(knownUnit);
                    for (int l = 0; l < values.length; l++) {
                        if (values[l] != 0) { // NaN too
                            lines.add(l, q, values[l]);
                        }
                    }
                }
            }
        }
    }

    /** One unit of the compressed side: its groups, each evaluated once, screened, and recomputed if need be. */
    private void computeCompressed(String unit) {
        List<String> crosses = compressed.crossUnits();
        Map<String, SparseLines> known = knownLines.get(unit);
        Map<String, SparseLines> ours = new HashMap<>();
        int lines = compressed.lineCount(unit);
        crosses.forEach(cross -> ours.put(cross, new SparseLines(lines)));
        compressedLines.put(unit, ours);
        int[][] groupsOfUnit = Colouring.alone(lines);
        if (!zeroGradientNeedsEveryColumn(unit)) {
            int[] offsets = new int[crosses.size() + 1];
            for (int v = 0; v < crosses.size(); v++) {
                offsets[v + 1] = offsets[v] + compressed.crossLength(crosses.get(v));
            }
            int[][] supports = new int[lines][];
            for (int l = 0; l < lines; l++) {
                int size = 0;
                for (String cross : crosses) {
                    size += known.get(cross).size(l);
                }
                int[] support = new int[size];
                int k = 0;
                for (int v = 0; v < crosses.size(); v++) {
                    SparseLines block = known.get(crosses.get(v));
                    for (int e = 0; e < block.size(l); e++) {
                        support[k++] = offsets[v] + block.position(l, e);
                    }
                }
                supports[l] = support;
            }
            groupsOfUnit = Colouring.groups(supports, offsets[crosses.size()]);
        }
        for (int g = 0; g < groupsOfUnit.length; g++) {
            int[] members = groupsOfUnit[g];
            if (members.length == 1 || !evaluateGroup(unit, g, members)) {
                for (int l : members) { // alone, or recomputed line by line
                    Map<String, double[]> line = evaluate(compressed, unit, new int[] {l}, new double[] {1});
                    crosses.forEach(cross -> ours.get(cross).set(l, line.get(cross)));
                }
            }
        }
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
     * Evaluates one group along its weighted lines and screens every entry; keeps the attributed values when all
     * pass the screen.
     *
     * @return false when the group must be recomputed line by line
     */
    private boolean evaluateGroup(String unit, int g, int[] members) {
        groups++;
        double[] w = weights(unit, g, members.length, compressed.weightBits(unit));
        int min1 = 0;
        int min2 = 1;
        if (w[min2] < w[min1]) {
            min1 = 1;
            min2 = 0;
        }
        for (int k = 2; k < w.length; k++) {
            if (w[k] < w[min1]) {
                min2 = min1;
                min1 = k;
            } else if (w[k] < w[min2]) {
                min2 = k;
            }
        }
        Map<String, double[]> measured = evaluate(compressed, unit, members, w);
        Map<String, SparseLines> known = knownLines.get(unit);
        List<Attribution> attributed = new ArrayList<>();
        for (String cross : compressed.crossUnits()) {
            double[] c = measured.get(cross);
            int[] owner = new int[c.length];
            java.util.Arrays.fill(owner, -1);
            double[] ownerValue = new double[c.length];
            SparseLines block = known.get(cross);
            for (int k = 0; k < members.length; k++) {
                for (int e = 0; e < block.size(members[k]); e++) {
                    owner[block.position(members[k], e)] = k;
                    ownerValue[block.position(members[k], e)] = block.value(members[k], e);
                }
            }
            for (int p = 0; p < c.length; p++) {
                int o = owner[p];
                if (o < 0 && c[p] == 0) {
                    continue; // zero against zero for every member
                }
                double ownerScore = 0;
                double rest = c[p];
                int strictest = min1;
                if (o >= 0) {
                    double value = c[p] / w[o];
                    ownerScore = score(value, ownerValue[p]);
                    rest = c[p] - w[o] * ownerValue[p];
                    strictest = o == min1 ? min2 : min1;
                    attributed.add(new Attribution(cross, members[o], p, value));
                } else {
                    attributed.add(new Attribution(cross, members[min1], p, c[p] / w[min1]));
                }
                double restScore = score(rest / w[strictest], 0);
                if (!(ownerScore <= SCREEN && restScore <= SCREEN)) { // NaN too
                    recomputedGroups++;
                    return false;
                }
            }
        }
        for (Attribution a : attributed) {
            compressedLines.get(unit).get(a.cross()).add(a.line(), a.position(), a.value());
        }
        return true;
    }

    private record Attribution(String cross, int line, int position, double value) {}

    /** The per-entry rule, with the compressed side's value in its place (analytic or numerical). */
    private double score(double compressedValue, double knownValue) {
        return which == Compressed.ANALYTIC ? tolerance.score(compressedValue, knownValue)
                : tolerance.score(knownValue, compressedValue);
    }

    /**
     * Distinct seeded weights in [1, 2] for a group's members, on the grid 1 + j·2^-bits so that the evaluation
     * applies each exactly.
     */
    private double[] weights(String unit, int g, int count, int bits) {
        SplittableRandom rnd = Seeded.stream(seed, "compress:" + which + ":" + unit + ":" + g);
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

    private Map<String, double[]> evaluate(JacobianSide side, String unit, int[] lines, double[] weights) {
        long start = System.nanoTime();
        try {
            return side.evaluate(unit, lines, weights);
        } finally {
            nanos.computeIfAbsent(side, k -> new HashMap<>()).merge(unit, System.nanoTime() - start, Long::sum);
        }
    }

    private Map<String, Double> seconds(JacobianSide side) {
        Map<String, Double> seconds = new HashMap<>();
        nanos.getOrDefault(side, Map.of()).forEach((unit, ns) -> seconds.put(unit, ns / 1e9));
        return seconds;
    }

    /** The entries of block (out, in): the known side's nonzeros and the compressed side's, merged by position. */
    private SparseBlock block(String out, String in, long[] outputShape, long[] inputShape) {
        String unit = which == Compressed.ANALYTIC ? out : in;
        String cross = which == Compressed.ANALYTIC ? in : out;
        SparseLines k = knownLines.get(unit).get(cross);
        SparseLines c = compressedLines.get(unit).get(cross);
        SparseBlock.Builder b = new SparseBlock.Builder(outputShape, inputShape);
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
                    b.add(l, p, cv, kv);
                } else {
                    b.add(p, l, kv, cv);
                }
            }
        }
        return b.build();
    }
}
