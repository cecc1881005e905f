package dev.gradcheck.check.colouring;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Windows that wrap round their dimension (circular padding), told by one more probed row per output dimension
 * along which some window is cut by an end of its input: the rows inside the output, where {@link PatternProbe}
 * looks, never reach an end. A window wraps where that edge row's nonzeros along its dimension all lie inside the
 * window taken round the dimension (or one a little wider) and some lie past the end, on the other side. Like
 * every guess it decides which lines share an evaluation, never a verdict.
 */
final class Wraps {

    private Wraps() {}

    /**
     * The guess with each window that its edge row shows wrapping made to wrap; the guess itself where none does.
     *
     * @param base  the probed row the edge rows differ from in one output dimension only
     * @param probe a row's spreads in each input (one backward pass, or none where probed already)
     */
    static WindowPattern round(WindowPattern guess, int[] base,
                               Function<int[], Map<String, PatternProbe.Spread>> probe) {
        List<WindowPattern.Input> inputs = new ArrayList<>();
        boolean any = false;
        for (WindowPattern.Input x : guess.inputs()) {
            WindowPattern.Dim[] dims = x.dims().clone();
            for (int k = 0; k < dims.length; k++) {
                int edge = edge(guess.outShape(), x, k);
                if (edge < 0) {
                    continue;
                }
                int[] row = base.clone();
                row[dims[k].outDim()] = edge;
                PatternProbe.Spread s = probe.apply(row).get(x.name());
                WindowPattern.Dim round = s == null ? null : round(s.held()[k], dims[k], row, (int) x.shape()[k]);
                if (round != null) {
                    dims[k] = round;
                    any = true;
                }
            }
            inputs.add(new WindowPattern.Input(x.name(), x.shape(), dims));
        }
        return any ? new WindowPattern(guess.outShape(), inputs) : guess;
    }

    /**
     * The index along its output dimension of a row whose window in input x's dimension k an end of the input
     * cuts, or −1 where that window could not wrap: it does not move, is as wide as the dimension, does not step
     * once round the dimension over its output dimension ({@link WindowPattern}'s condition), or no end cuts it.
     */
    static int edge(long[] outShape, WindowPattern.Input x, int k) {
        WindowPattern.Dim d = x.dims()[k];
        if (d.isWhole() || d.stride() == 0 || !WindowPattern.movesAlone(x, k)) {
            return -1;
        }
        long n = x.shape()[k];
        long m = outShape[d.outDim()];
        if (Math.abs(d.stride()) * m != n || d.width() >= n) {
            return -1;
        }
        for (long o : new long[] {0, m - 1}) {
            long lo = d.stride() * o + d.offset();
            if (lo < 0 || lo + d.width() - 1 >= n) {
                return (int) o;
            }
        }
        return -1;
    }

    /**
     * The window round its dimension of length n that holds the indices the edge row holds along it, where some lie
     * past an end of the guessed window: the guessed one, or the narrowest one widened on one side that holds them
     * (a backward that folds the wrap one element off still gets a window holding the true dependencies and its
     * own, so that both are judged as entries and counted as the dense check counts them); null where none lies
     * past an end, or no window up to half the dimension holds them.
     */
    private static WindowPattern.Dim round(BitSet held, WindowPattern.Dim d, int[] row, int n) {
        int lo = d.lo(row);
        if (held.stream().allMatch(a -> a >= lo && a <= lo + d.width() - 1)) {
            return null;
        }
        for (int wider = 0; d.width() + wider <= Math.max(d.width(), n / 2); wider++) {
            for (int shift : wider == 0 ? new int[] {0} : new int[] {-wider, 0}) {
                int[] box = WindowPattern.round(lo + shift, d.width() + wider, n);
                if (held.stream().allMatch(a -> WindowPattern.inside(box, a, n))) {
                    return new WindowPattern.Dim(d.outDim(), d.stride(), d.offset() + shift, d.width() + wider)
                            .wrapping(n);
                }
            }
        }
        return null;
    }
}
