package dev.gradcheck.check.twosided;

import dev.gradcheck.check.numeric.LargestFinite;
import java.util.HashMap;
import java.util.Map;

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
    private final Map<Integer, Double> exact = new HashMap<>();
    /** By (row, col) of the block: an entry's value at its most precise step, where it was taken again there. */
    private final Map<Long, Double> atPreciseStep = new HashMap<>();

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
        Double n = exact.isEmpty() ? null : exact.get(at);
        return n != null ? n : analytic[at] - gap[at];
    }

    void numerical(int at, double n) {
        gap[at] = (float) (analytic[at] - n);
    }

    /** An entry's values as the dense check computes them. */
    void exact(int at, double a, double n) {
        analytic[at] = a;
        exact.put(at, n);
    }

    /** Records entry (row, col)'s value at a more precise step: the value it is judged by from now on. */
    void atPreciseStep(int row, int col, double value) {
        atPreciseStep.put(key(row, col), value);
    }

    /**
     * Entry (row, col)'s numerical value as judged: at its most precise step where it was taken there, else the one
     * given (its value at the run's step).
     */
    double judged(int row, int col, double atStep) {
        Double precise = atPreciseStep.isEmpty() ? null : atPreciseStep.get(key(row, col));
        return precise != null ? precise : atStep;
    }

    private static long key(int row, int col) {
        return ((long) row << 32) | (col & 0xFFFFFFFFL);
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
