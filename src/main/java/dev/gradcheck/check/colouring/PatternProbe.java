package dev.gradcheck.check.colouring;

import dev.gradcheck.check.jacobian.AnalyticJacobian;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.twosided.TwoSidedCompression;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guesses an output's {@link WindowPattern} from a few rows of the analytic Jacobian, each one backward pass: rows at
 * three points inside the output (a quarter, half and three quarters along every dimension) and each one's
 * neighbour along every output dimension. Per input dimension, how far the probed rows' nonzeros move per step of
 * each output dimension gives the window's stride; how far they spread around it, its offset and width; nonzeros
 * over the whole dimension at every probe, the whole dimension. The probes come from the backward under test, so a
 * wrong backward can make a wrong guess: that costs evaluations, never a verdict (a value outside the guess is
 * judged as one, {@link TwoSidedCompression}).
 */
public final class PatternProbe {

    private static final double[] BASES = {0.5, 0.25, 0.75};
    /**
     * Steps between the middle row and a far one, at least, for the stride they show: a nonzero anywhere inside a
     * window of width w moves it by less than w, so 4 steps tell strides of windows up to 2 wide, 7 (a quarter of
     * 28 outputs) up to 3 (rounding (s·Δ ± (w−1))/Δ).
     */
    private static final int FAR_STEPS = 4;

    /** The plan a guess gives, at debug level: what a run will evaluate, before a long run makes it. */
    private static final Logger LOG = LoggerFactory.getLogger(PatternProbe.class);

    private PatternProbe() {}

    /** One probed row: its output index and its spread in each input. */
    private record Probe(int[] at, Map<String, Spread> spreads) {}

    /**
     * The guess for output {@code out} over {@code inputs}, or null when the probes show no window pattern (an input
     * whose probed rows are all zero, windows moving along two output dimensions at once). A window may move
     * backwards (a negative stride: reverse, a flipped kernel), its offset then the lower end at output index 0.
     */
    public static WindowPattern guess(AnalyticJacobian side, String out, long[] outShape, List<String> inputs,
                               Map<String, long[]> inShapes) {
        WindowPattern guessed = guessed(side, out, outShape, inputs, inShapes);
        if (guessed != null && LOG.isDebugEnabled()) {
            LOG.debug("{}: {}", out, guessed.plan());
        }
        return guessed;
    }

    private static WindowPattern guessed(AnalyticJacobian side, String out, long[] outShape, List<String> inputs,
                                         Map<String, long[]> inShapes) {
        Map<Long, Probe> probed = new LinkedHashMap<>();
        java.util.function.Function<int[], Probe> at = row -> probed.computeIfAbsent(flat(row, outShape),
                p -> probeRow(side, out, row, p, inputs, inShapes));
        List<Probe> probes = probe(outShape, at);
        WindowPattern near = windows(probes, List.of(), outShape, inputs, inShapes);
        if (near != null) {
            return Wraps.round(near, probes.get(0).at(), row -> at.apply(row).spreads());
        }
        // the nonzeros may sit anywhere inside their windows (max pooling's at each window's maximum), so that one
        // step moves them by the stride give or take the width: rows a quarter of the output away tell the stride
        List<Probe> far = farProbes(outShape, at);
        List<Probe> all = new ArrayList<>(probes);
        far.stream().filter(p -> !all.contains(p)).forEach(all::add);
        WindowPattern spread = windows(all, far, outShape, inputs, inShapes);
        return spread == null ? null : Wraps.round(spread, far.get(0).at(), row -> at.apply(row).spreads());
    }

    /**
     * The windows the probes show for every input, or null where they show none.
     *
     * @param far the probes a quarter of the output away from the middle one along each dimension, whose distance
     *            sets the strides; empty to take them from neighbouring rows
     */
    private static WindowPattern windows(List<Probe> probes, List<Probe> far, long[] outShape, List<String> inputs,
                                         Map<String, long[]> inShapes) {
        List<WindowPattern.Input> windows = new ArrayList<>();
        for (String in : inputs) {
            long[] shape = inShapes.get(in);
            WindowPattern.Dim[] dims = new WindowPattern.Dim[shape.length];
            for (int k = 0; k < shape.length; k++) {
                dims[k] = dim(probes, far, in, k, shape[k], outShape.length);
                if (dims[k] == null) {
                    return null;
                }
            }
            windows.add(new WindowPattern.Input(in, shape, dims));
        }
        return new WindowPattern(outShape, windows);
    }

    /**
     * The middle row (the first base, as {@link #probe} took it) and, per output dimension, the row a quarter of
     * that dimension further along it, where that is at least {@link #FAR_STEPS} steps: one backward pass each.
     */
    private static List<Probe> farProbes(long[] outShape, java.util.function.Function<int[], Probe> at) {
        int[] base = new int[outShape.length];
        for (int d = 0; d < base.length; d++) {
            base[d] = (int) Math.floor(BASES[0] * (outShape[d] - 1));
        }
        List<Probe> far = new ArrayList<>();
        far.add(at.apply(base));
        for (int d = 0; d < base.length; d++) {
            int to = (int) Math.floor(BASES[2] * (outShape[d] - 1));
            if (to - base[d] >= FAR_STEPS) {
                int[] row = base.clone();
                row[d] = to;
                far.add(at.apply(row));
            }
        }
        return far;
    }

    /**
     * The probed rows: at each base point and its neighbour along every output dimension. A row whose backward is
     * zero on every input shows no window (relu's rows at negative or zero inputs, half of them and more), and a
     * missing neighbour shows no stride, so where any of a base's rows is zero the base moves one step along the
     * last output dimension, up to {@link ColouringTuning#MOST_PROBE_SHIFTS} times, keeping the first rows that are
     * all nonzero (or, failing that, the first ones tried).
     */
    private static List<Probe> probe(long[] outShape, java.util.function.Function<int[], Probe> at) {
        List<Probe> probes = new ArrayList<>();
        for (double f : BASES) {
            int[] base = new int[outShape.length];
            for (int d = 0; d < base.length; d++) {
                base[d] = (int) Math.floor(f * (outShape[d] - 1));
            }
            for (Probe p : aroundNonzero(base, outShape, at)) {
                if (!probes.contains(p)) {
                    probes.add(p);
                }
            }
        }
        return probes;
    }

    /** The rows around {@code base}, or around the first base along the last dimension whose rows are nonzero. */
    private static List<Probe> aroundNonzero(int[] base, long[] outShape, java.util.function.Function<int[], Probe> at) {
        int last = outShape.length - 1;
        List<Probe> first = null;
        for (int shift = 0; shift <= ColouringTuning.MOST_PROBE_SHIFTS; shift++) {
            if (shift > 0 && (last < 0 || base[last] + shift + 1 >= outShape[last])) {
                break;
            }
            int[] moved = base.clone();
            if (shift > 0) {
                moved[last] += shift;
            }
            List<Probe> around = around(moved, outShape).stream().map(at).toList();
            first = first == null ? around : first;
            if (around.stream().allMatch(PatternProbe::nonzero)) {
                return around;
            }
        }
        return first;
    }

    /** A base point and its neighbour along every output dimension (back one step at the last index). */
    private static List<int[]> around(int[] base, long[] outShape) {
        List<int[]> rows = new ArrayList<>();
        rows.add(base);
        for (int d = 0; d < base.length; d++) {
            if (outShape[d] > 1) {
                int[] next = base.clone();
                next[d] += next[d] + 1 < outShape[d] ? 1 : -1;
                rows.add(next);
            }
        }
        return rows;
    }

    private static Probe probeRow(AnalyticJacobian side, String out, int[] at, long p, List<String> inputs,
                                  Map<String, long[]> inShapes) {
        Map<String, double[]> values = side.evaluate(out, new int[] {Math.toIntExact(p)}, new double[] {1});
        Map<String, Spread> spreads = new LinkedHashMap<>();
        for (String in : inputs) {
            spreads.put(in, spread(values.get(in), inShapes.get(in)));
        }
        return new Probe(at, spreads);
    }

    private static boolean nonzero(Probe p) {
        return p.spreads().values().stream().anyMatch(java.util.Objects::nonNull);
    }

    private static long flat(int[] at, long[] shape) {
        long f = 0;
        for (int d = 0; d < at.length; d++) {
            f = f * shape[d] + at[d];
        }
        return f;
    }

    private static Spread spread(double[] row, long[] shape) {
        int[] lo = null;
        int[] hi = null;
        BitSet[] held = null;
        for (int c = 0; c < row.length; c++) {
            if (row[c] == 0) {
                continue;
            }
            long[] at = Flat.unravel(c, shape);
            if (lo == null) {
                lo = new int[shape.length];
                hi = new int[shape.length];
                Arrays.fill(lo, Integer.MAX_VALUE);
                Arrays.fill(hi, Integer.MIN_VALUE);
                held = new BitSet[shape.length];
                Arrays.setAll(held, k -> new BitSet());
            }
            for (int k = 0; k < at.length; k++) {
                lo[k] = (int) Math.min(lo[k], at[k]);
                hi[k] = (int) Math.max(hi[k], at[k]);
                held[k].set((int) at[k]);
            }
        }
        return lo == null ? null : new Spread(lo, hi, held);
    }

    /** Input dimension k's window, or null when the probes show none ({@code far}: see {@link #windows}). */
    private static WindowPattern.Dim dim(List<Probe> probes, List<Probe> far, String in, int k, long size,
                                         int outRank) {
        List<Probe> seen = probes.stream().filter(p -> p.spreads().get(in) != null).toList();
        if (seen.isEmpty()) {
            return null;
        }
        boolean whole = seen.stream().allMatch(p -> p.spreads().get(in).lo()[k] == 0
                && p.spreads().get(in).hi()[k] == size - 1);
        if (whole) {
            return WindowPattern.Dim.whole();
        }
        int outDim = -1;
        int stride = 0;
        for (int d = 0; d < outRank; d++) {
            Integer s = far.isEmpty() ? stride(seen, in, k, d) : farStride(far, in, k, d);
            if (s == null) {
                return null;
            }
            if (s != 0) {
                if (outDim >= 0) {
                    return null; // a window moving along two output dimensions at once
                }
                outDim = d;
                stride = s;
            }
        }
        return around(seen, in, k, outDim, stride);
    }

    /** The window along input dimension k that moves by {@code stride} per step of {@code outDim}: every probe's. */
    private static WindowPattern.Dim around(List<Probe> seen, String in, int k, int outDim, int stride) {
        int low = Integer.MAX_VALUE;
        int high = Integer.MIN_VALUE;
        for (Probe p : seen) {
            int lo = stride == 0 ? 0 : stride * p.at()[outDim];
            low = Math.min(low, p.spreads().get(in).lo()[k] - lo);
            high = Math.max(high, p.spreads().get(in).hi()[k] - lo);
        }
        return new WindowPattern.Dim(stride == 0 ? 0 : outDim, stride, low, high - low + 1);
    }

    /**
     * How far input dimension k's lowest nonzero moves per step of output dimension d, the same over every pair of
     * probes one step apart along d and equal elsewhere (0 when no pair exists, null when the pairs' moves differ).
     */
    private static Integer stride(List<Probe> seen, String in, int k, int d) {
        List<Integer> moves = new ArrayList<>();
        for (Probe a : seen) {
            for (Probe b : seen) {
                if (b.at()[d] == a.at()[d] + 1 && equalElsewhere(a.at(), b.at(), d)) {
                    moves.add(b.spreads().get(in).lo()[k] - a.spreads().get(in).lo()[k]);
                }
            }
        }
        if (moves.isEmpty()) {
            return 0;
        }
        // moves that differ show a nonzero moving about inside its window (max pooling's argmax): no stride to read
        // off one step, so the rows a quarter of the output apart tell it ({@link #farStride})
        return moves.stream().distinct().count() == 1 ? moves.get(0) : null;
    }

    /**
     * How far input dimension k's lowest nonzero moves per step of output dimension d, from the middle row and the
     * row a quarter further along d: their distance over the steps between them, rounded, so that where the nonzero
     * sits inside its window moves it by less than half a step (0 when no such pair, or either row is zero there).
     */
    private static Integer farStride(List<Probe> far, String in, int k, int d) {
        Probe base = far.get(0);
        for (Probe p : far.subList(1, far.size())) {
            int steps = p.at()[d] - base.at()[d];
            Spread a = base.spreads().get(in);
            Spread b = p.spreads().get(in);
            if (steps > 0 && equalElsewhere(base.at(), p.at(), d) && a != null && b != null) {
                return (int) Math.round((double) (b.lo()[k] - a.lo()[k]) / steps);
            }
        }
        return 0;
    }

    private static boolean equalElsewhere(int[] a, int[] b, int d) {
        for (int i = 0; i < a.length; i++) {
            if (i != d && a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }
}
