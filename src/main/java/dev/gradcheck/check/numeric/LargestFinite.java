package dev.gradcheck.check.numeric;

import java.util.function.IntToDoubleFunction;

/**
 * The largest finite |value| of some values (0 when none is finite): the scale a block's rule and its rounding are
 * taken at. Infinities and NaNs are left out, so that one such entry does not make every other pass.
 */
public final class LargestFinite {

    private double largest;

    /** Takes one value into account. */
    public void add(double v) {
        if (Double.isFinite(v)) {
            largest = Math.max(largest, Math.abs(v));
        }
    }

    public double value() {
        return largest;
    }

    public static double of(double[] values) {
        LargestFinite l = new LargestFinite();
        for (double v : values) { // millions of entries (a layer's analytic values): no call per value
            l.add(v);
        }
        return l.value();
    }

    /** Over {@code at(0)} to {@code at(n − 1)}. */
    public static double of(int n, IntToDoubleFunction at) {
        LargestFinite l = new LargestFinite();
        for (int k = 0; k < n; k++) {
            l.add(at.applyAsDouble(k));
        }
        return l.value();
    }
}
