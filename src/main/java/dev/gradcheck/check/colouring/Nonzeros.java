package dev.gradcheck.check.colouring;

import java.util.Arrays;

/**
 * A line's nonzero values (NaN counts as nonzero), by position, ascending: what is kept of a line computed alone,
 * where most of it is zero.
 */
public record Nonzeros(int[] at, double[] values) {

    public static Nonzeros of(double[] v) {
        int n = 0;
        for (double x : v) {
            n += x != 0 ? 1 : 0; // NaN too
        }
        int[] at = new int[n];
        double[] values = new double[n];
        for (int i = 0, k = 0; i < v.length; i++) {
            if (v[i] != 0) {
                at[k] = i;
                values[k++] = v[i];
            }
        }
        return new Nonzeros(at, values);
    }

    /** The value at a position: 0 where none is kept. */
    public double get(int position) {
        int k = Arrays.binarySearch(at, position);
        return k < 0 ? 0 : values[k];
    }
}
