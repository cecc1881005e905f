package dev.gradcheck.check.twosided;

import dev.gradcheck.check.numeric.LargestFinite;
import dev.gradcheck.check.numeric.NumericalError;
import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2DoubleOpenHashMap;
import java.util.BitSet;

/**
 * Both sides' values of an input's entries, the one home of an entry's value: the analytic value, and the numerical
 * one as its difference from it, a float (where the two pass the rule they agree to about 1e-6, so the float keeps
 * the numerical value to about 1e-13 of itself; a third less memory at 64 million entries), exact where an entry was
 * recomputed; and, by position, the value where an entry was taken again at a more precise step, which is the value
 * judged (its bound there is its block's, {@code NumericalError.Block#atPreciseStep}).
 */
final class EntryValues {
    private final double[] analytic;
    private final float[] gap;
    private final Int2DoubleOpenHashMap exact = new Int2DoubleOpenHashMap();
    /** Where {@link #exact} holds a value (any double may be one, so the map's own answer cannot say). */
    private final BitSet isExact = new BitSet();
    /** By (row, col) of the block: an entry's value at its most precise step, where it was taken again there. */
    private final Long2DoubleOpenHashMap atPreciseStep = new Long2DoubleOpenHashMap();
    /** The rows with an entry in {@link #atPreciseStep}: the other rows' entries are looked up in no map. */
    private final BitSet preciseRows = new BitSet();

    EntryValues(int n) {
        analytic = new double[n];
        gap = new float[n];
    }

    double analytic(int at) {
        return analytic[at];
    }

    void analytic(int at, double a) {
        analytic[at] = a;
    }

    double numerical(int at) {
        return isExact.get(at) ? exact.get(at) : analytic[at] - gap[at];
    }

    void numerical(int at, double n) {
        gap[at] = (float) (analytic[at] - n);
    }

    /** An entry's values as the dense check computes them. */
    void exact(int at, double a, double n) {
        analytic[at] = a;
        exact.put(at, n);
        isExact.set(at);
    }

    /** Records entry (row, col)'s value at a more precise step: the value it is judged by from now on. */
    void atPreciseStep(int row, int col, double value) {
        atPreciseStep.put(NumericalError.entryKey(row, col), value);
        preciseRows.set(row);
    }

    /**
     * Entry (row, col)'s numerical value as judged: at its most precise step where it was taken there, else the one
     * given (its value at the run's step).
     */
    double judged(int row, int col, double atStep) {
        if (!preciseRows.get(row)) {
            return atStep;
        }
        long key = NumericalError.entryKey(row, col);
        return atPreciseStep.containsKey(key) ? atPreciseStep.get(key) : atStep;
    }


    /** The largest finite |analytic value|, the scale of the screen's rule. */
    double largestAnalytic() {
        return LargestFinite.of(analytic);
    }

    /** The largest finite |numerical value|, the scale of the report's rule. */
    double largestNumerical() {
        return LargestFinite.of(analytic.length, this::numerical);
    }
}
