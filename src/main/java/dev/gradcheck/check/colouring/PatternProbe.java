package dev.gradcheck.check.colouring;

import dev.gradcheck.check.jacobian.AnalyticJacobian;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.twosided.TwoSidedCompression;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    private PatternProbe() {}

    /** Where one probed row's nonzeros lie in one input: per dimension the lowest and highest index, or null. */
    private record Spread(int[] lo, int[] hi) {}

    /** One probed row: its output index and its spread in each input. */
    private record Probe(int[] at, Map<String, Spread> spreads) {}

    /**
     * The guess for output {@code out} over {@code inputs}, or null when the probes show no window pattern (an input
     * whose probed rows are all zero, windows moving along two output dimensions at once). A window may move
     * backwards (a negative stride: reverse, a flipped kernel), its offset then the lower end at output index 0.
     */
    public static WindowPattern guess(AnalyticJacobian side, String out, long[] outShape, List<String> inputs,
                               Map<String, long[]> inShapes) {
        List<Probe> probes = probe(side, out, outShape, inputs, inShapes);
        List<WindowPattern.Input> windows = new ArrayList<>();
        for (String in : inputs) {
            long[] shape = inShapes.get(in);
            WindowPattern.Dim[] dims = new WindowPattern.Dim[shape.length];
            for (int k = 0; k < shape.length; k++) {
                dims[k] = dim(probes, in, k, shape[k], outShape.length);
                if (dims[k] == null) {
                    return null;
                }
            }
            windows.add(new WindowPattern.Input(in, shape, dims));
        }
        return new WindowPattern(outShape, windows);
    }

    /**
     * The probed rows: at each base point and its neighbour along every output dimension. A row whose backward is
     * zero on every input shows no window (relu's rows at negative or zero inputs, half of them and more), and a
     * missing neighbour shows no stride, so where any of a base's rows is zero the base moves one step along the
     * last output dimension, up to {@link ColouringTuning#MOST_PROBE_SHIFTS} times, keeping the first rows that are
     * all nonzero (or, failing that, the first ones tried).
     */
    private static List<Probe> probe(AnalyticJacobian side, String out, long[] outShape, List<String> inputs,
                                     Map<String, long[]> inShapes) {
        Map<Long, Probe> probed = new LinkedHashMap<>();
        List<Probe> probes = new ArrayList<>();
        for (double f : BASES) {
            int[] base = new int[outShape.length];
            for (int d = 0; d < base.length; d++) {
                base[d] = (int) Math.floor(f * (outShape[d] - 1));
            }
            for (Probe p : aroundNonzero(base, outShape, row -> probed.computeIfAbsent(flat(row, outShape),
                    at -> probeRow(side, out, row, at, inputs, inShapes)))) {
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
            }
            for (int k = 0; k < at.length; k++) {
                lo[k] = (int) Math.min(lo[k], at[k]);
                hi[k] = (int) Math.max(hi[k], at[k]);
            }
        }
        return lo == null ? null : new Spread(lo, hi);
    }

    /** Input dimension k's window, or null when the probes show none. */
    private static WindowPattern.Dim dim(List<Probe> probes, String in, int k, long size, int outRank) {
        List<Probe> seen = probes.stream().filter(p -> p.spreads().get(in) != null).toList();
        if (seen.isEmpty()) {
            return null;
        }
        boolean whole = seen.stream().allMatch(p -> p.spreads().get(in).lo()[k] == 0
                && p.spreads().get(in).hi()[k] == size - 1);
        if (whole) {
            return WindowPattern.Dim.whole();
        }
        List<List<Integer>> moves = new ArrayList<>();
        for (int d = 0; d < outRank; d++) {
            moves.add(moves(seen, in, k, d));
        }
        int outDim = movingDimension(moves);
        if (outDim == TWO_DIMENSIONS) {
            return null; // a window moving along two output dimensions at once
        }
        int stride = outDim < 0 ? 0 : median(moves.get(outDim));
        int noise = noise(moves, outDim, stride);
        int low = Integer.MAX_VALUE;
        int high = Integer.MIN_VALUE;
        for (Probe p : seen) {
            int lo = stride == 0 ? 0 : stride * p.at()[outDim];
            low = Math.min(low, p.spreads().get(in).lo()[k] - lo);
            high = Math.max(high, p.spreads().get(in).hi()[k] - lo);
        }
        // where the rows' nonzeros wander inside their windows (max pooling's argmax), the window is widened by as
        // much as they were seen to wander: a larger window costs evaluations, one too small a search
        low -= noise;
        high += noise;
        return new WindowPattern.Dim(stride == 0 ? 0 : outDim, stride, low, high - low + 1);
    }

    private static final int TWO_DIMENSIONS = -2;

    /**
     * The output dimension that moves the window: the one whose median move is the largest in size (-1: none
     * moves it; {@link #TWO_DIMENSIONS} where two move it as far, no window).
     */
    private static int movingDimension(List<List<Integer>> moves) {
        int best = -1;
        boolean tied = false;
        for (int d = 0; d < moves.size(); d++) {
            int m = Math.abs(median(moves.get(d)));
            int b = best < 0 ? 0 : Math.abs(median(moves.get(best)));
            if (m > b) {
                best = d;
                tied = false;
            } else if (m == b && m != 0) {
                tied = true;
            }
        }
        return tied ? TWO_DIMENSIONS : best;
    }

    /**
     * How far the probed moves stray from the window's: a stride's moves all equal it and other dimensions' are 0
     * where the rows' nonzeros fill their windows alike; where they do not (max pooling's one nonzero per row, at
     * its argmax), each step moves them by up to the window's width less one.
     */
    private static int noise(List<List<Integer>> moves, int outDim, int stride) {
        int noise = 0;
        for (int d = 0; d < moves.size(); d++) {
            int expected = d == outDim ? stride : 0;
            for (int m : moves.get(d)) {
                noise = Math.max(noise, Math.abs(m - expected));
            }
        }
        return noise;
    }

    /**
     * How far input dimension k's lowest nonzero moves per step of output dimension d, over pairs of probes one step
     * apart along d and equal elsewhere (none when no pair exists).
     */
    private static List<Integer> moves(List<Probe> seen, String in, int k, int d) {
        List<Integer> moves = new ArrayList<>();
        for (Probe a : seen) {
            for (Probe b : seen) {
                if (b.at()[d] == a.at()[d] + 1 && equalElsewhere(a.at(), b.at(), d)) {
                    moves.add(b.spreads().get(in).lo()[k] - a.spreads().get(in).lo()[k]);
                }
            }
        }
        moves.sort(Integer::compare);
        return moves;
    }

    /** The median move (0 for none). */
    private static int median(List<Integer> sortedMoves) {
        return sortedMoves.isEmpty() ? 0 : sortedMoves.get(sortedMoves.size() / 2);
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
