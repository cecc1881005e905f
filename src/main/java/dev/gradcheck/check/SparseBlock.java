package dev.gradcheck.check;

import java.util.Arrays;

/**
 * A Jacobian block d output / d input as the list of its entries that are not zero on both sides, in row-major order
 * (flat output index, then flat input index): what a compressed check knows of a block. Every entry not listed is 0
 * analytic against 0 numerical. Each entry carries the numerical side's error bound there, the one the dense
 * comparison gives that entry ({@link NumericalError}). The entry at (0, 0) is always listed, so that a block whose entries all score the
 * same names the element a dense comparison names (its first).
 */
final class SparseBlock {

    private final long[] outputShape;
    private final long[] inputShape;
    private final int[] rows;
    private final int[] cols;
    private final double[] analytic;
    private final double[] numerical;
    private final double[] errors;

    private SparseBlock(long[] outputShape, long[] inputShape, int[] rows, int[] cols, double[] analytic,
                        double[] numerical, double[] errors) {
        this.outputShape = outputShape;
        this.inputShape = inputShape;
        this.rows = rows;
        this.cols = cols;
        this.analytic = analytic;
        this.numerical = numerical;
        this.errors = errors;
    }

    long[] outputShape() {
        return outputShape;
    }

    long[] inputShape() {
        return inputShape;
    }

    int size() {
        return rows.length;
    }

    int row(int k) {
        return rows[k];
    }

    int col(int k) {
        return cols[k];
    }

    double analytic(int k) {
        return analytic[k];
    }

    double numerical(int k) {
        return numerical[k];
    }

    /** The numerical side's error bound at entry k. */
    double error(int k) {
        return errors[k];
    }

    /** The dense analytic and numerical blocks (what the sparse comparison must agree with). */
    Jacobian[] dense() {
        int m = Math.toIntExact(Flat.size(outputShape));
        int n = Math.toIntExact(Flat.size(inputShape));
        double[][] a = new double[m][n];
        double[][] num = new double[m][n];
        for (int k = 0; k < rows.length; k++) {
            a[rows[k]][cols[k]] = analytic[k];
            num[rows[k]][cols[k]] = numerical[k];
        }
        return new Jacobian[] {new Jacobian(outputShape, inputShape, a), new Jacobian(outputShape, inputShape, num)};
    }

    /**
     * Collects entries; {@link #build} puts them in row-major order (a stable sort by row, so entries added in
     * increasing input index within each row need no more).
     */
    static final class Builder {
        private final long[] outputShape;
        private final long[] inputShape;
        private int[] rows = new int[16];
        private int[] cols = new int[16];
        private double[] a = new double[16];
        private double[] n = new double[16];
        private double[] e = new double[16];
        private int size;

        Builder(long[] outputShape, long[] inputShape) {
            this.outputShape = outputShape;
            this.inputShape = inputShape;
        }

        /**
         * An entry at flat output index {@code row} and flat input index {@code col}, each listed at most once, with
         * the numerical side's error bound there.
         */
        void add(int row, int col, double analyticValue, double numericalValue, double error) {
            if (size == rows.length) {
                rows = Arrays.copyOf(rows, size * 2);
                cols = Arrays.copyOf(cols, size * 2);
                a = Arrays.copyOf(a, size * 2);
                n = Arrays.copyOf(n, size * 2);
                e = Arrays.copyOf(e, size * 2);
            }
            rows[size] = row;
            cols[size] = col;
            a[size] = analyticValue;
            n[size] = numericalValue;
            e[size] = error;
            size++;
        }

        SparseBlock build() {
            int m = Math.toIntExact(Flat.size(outputShape));
            boolean empty = m == 0 || Flat.size(inputShape) == 0;
            boolean hasOrigin = false;
            for (int k = 0; k < size && !hasOrigin; k++) {
                hasOrigin = rows[k] == 0 && cols[k] == 0;
            }
            int extra = empty || hasOrigin ? 0 : 1; // (0, 0), zero on both sides, first
            int[] start = new int[m + 1];
            for (int k = 0; k < size; k++) {
                start[rows[k] + 1]++;
            }
            start[0] = extra;
            for (int r = 0; r < m; r++) {
                start[r + 1] += start[r];
            }
            int total = size + extra;
            int[] sortedRows = new int[total];
            int[] sortedCols = new int[total];
            double[] sortedA = new double[total];
            double[] sortedN = new double[total];
            double[] sortedE = new double[total];
            int[] next = Arrays.copyOf(start, m);
            for (int k = 0; k < size; k++) {
                int at = next[rows[k]]++;
                sortedRows[at] = rows[k];
                sortedCols[at] = cols[k];
                sortedA[at] = a[k];
                sortedN[at] = n[k];
                sortedE[at] = e[k];
            }
            for (int r = 0; r < m; r++) {
                sortWithinRow(sortedCols, sortedA, sortedN, sortedE, start[r], start[r + 1]);
            }
            return new SparseBlock(outputShape, inputShape, sortedRows, sortedCols, sortedA, sortedN, sortedE);
        }

        /** Entries of one row by input index; already in order unless they were added out of order. */
        private static void sortWithinRow(int[] cols, double[] a, double[] n, double[] e, int from, int to) {
            boolean sorted = true;
            for (int k = from + 1; k < to && sorted; k++) {
                sorted = cols[k - 1] < cols[k];
            }
            if (sorted) {
                return;
            }
            Integer[] order = new Integer[to - from];
            for (int k = 0; k < order.length; k++) {
                order[k] = from + k;
            }
            Arrays.sort(order, (x, y) -> Integer.compare(cols[x], cols[y]));
            int[] c = new int[order.length];
            double[] av = new double[order.length];
            double[] nv = new double[order.length];
            double[] ev = new double[order.length];
            for (int k = 0; k < order.length; k++) {
                c[k] = cols[order[k]];
                av[k] = a[order[k]];
                nv[k] = n[order[k]];
                ev[k] = e[order[k]];
            }
            System.arraycopy(c, 0, cols, from, c.length);
            System.arraycopy(av, 0, a, from, av.length);
            System.arraycopy(nv, 0, n, from, nv.length);
            System.arraycopy(ev, 0, e, from, ev.length);
        }
    }
}
