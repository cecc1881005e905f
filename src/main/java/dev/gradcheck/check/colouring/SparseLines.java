package dev.gradcheck.check.colouring;

import dev.gradcheck.check.numeric.LargestFinite;
import java.util.Arrays;

/**
 * The nonzero entries of a block, line by line (rows of an output, or columns of an input): for each line the
 * positions in the other dimension, ascending as they were added, and their values. NaN counts as nonzero.
 */
final class SparseLines {

    private static final int[] NO_POSITIONS = new int[0];
    private static final double[] NO_VALUES = new double[0];

    private final int[][] positions;
    private final double[][] values;
    private final int[] sizes;

    SparseLines(int lines) {
        positions = new int[lines][];
        values = new double[lines][];
        sizes = new int[lines];
        Arrays.fill(positions, NO_POSITIONS);
        Arrays.fill(values, NO_VALUES);
    }

    int lineCount() {
        return sizes.length;
    }

    /** Adds an entry; positions of one line must come in ascending order. */
    void add(int line, int position, double value) {
        int n = sizes[line];
        if (n == positions[line].length) {
            int grown = Math.max(4, n * 2);
            positions[line] = Arrays.copyOf(positions[line], grown);
            values[line] = Arrays.copyOf(values[line], grown);
        }
        positions[line][n] = position;
        values[line][n] = value;
        sizes[line] = n + 1;
    }

    /** Replaces a line by the nonzero entries of a dense vector. */
    void set(int line, double[] dense) {
        positions[line] = NO_POSITIONS;
        values[line] = NO_VALUES;
        sizes[line] = 0;
        for (int p = 0; p < dense.length; p++) {
            if (dense[p] != 0) { // NaN too
                add(line, p, dense[p]);
            }
        }
    }

    int size(int line) {
        return sizes[line];
    }

    int position(int line, int k) {
        return positions[line][k];
    }

    double value(int line, int k) {
        return values[line][k];
    }

    boolean isEmpty() {
        for (int n : sizes) {
            if (n > 0) {
                return false;
            }
        }
        return true;
    }

    /** The largest finite |value| over every line: the scale of a known block. */
    double largestMagnitude() {
        LargestFinite largest = new LargestFinite();
        for (int l = 0; l < sizes.length; l++) {
            for (int k = 0; k < sizes[l]; k++) {
                largest.add(values[l][k]);
            }
        }
        return largest.value();
    }
}
