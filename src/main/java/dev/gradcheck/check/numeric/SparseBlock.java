package dev.gradcheck.check.numeric;

import java.util.Arrays;

/**
 * A Jacobian block d output / d input as the list of its entries that are not zero on both sides, in row-major order
 * (flat output index, then flat input index): what a compressed check knows of a block. Every entry not listed is 0
 * analytic against 0 numerical. Each entry carries the numerical side's error bound there, the one the dense
 * comparison gives that entry ({@link NumericalError}). The entry at (0, 0) is always listed, so that a block whose entries all score the
 * same names the element a dense comparison names (its first).
 */
public final class SparseBlock {

    private final long[] outputShape;
    private final long[] inputShape;
    private final Entries entries;

    private SparseBlock(long[] outputShape, long[] inputShape, Entries entries) {
        this.outputShape = outputShape;
        this.inputShape = inputShape;
        this.entries = entries;
    }

    /** Entries as one array per field: entry k is at index k of each. */
    private record Entries(int[] rows, int[] cols, double[] analytic, double[] numerical, double[] errors) {

        static Entries ofLength(int n) {
            return new Entries(new int[n], new int[n], new double[n], new double[n], new double[n]);
        }

        Entries copyOf(int n) {
            return new Entries(Arrays.copyOf(rows, n), Arrays.copyOf(cols, n), Arrays.copyOf(analytic, n),
                    Arrays.copyOf(numerical, n), Arrays.copyOf(errors, n));
        }

        /** Entry {@code k} of {@code from} as entry {@code at} of these. */
        void set(int at, Entries from, int k) {
            rows[at] = from.rows[k];
            cols[at] = from.cols[k];
            analytic[at] = from.analytic[k];
            numerical[at] = from.numerical[k];
            errors[at] = from.errors[k];
        }
    }

    public long[] outputShape() {
        return outputShape;
    }

    public long[] inputShape() {
        return inputShape;
    }

    public int size() {
        return entries.rows().length;
    }

    int row(int k) {
        return entries.rows()[k];
    }

    int col(int k) {
        return entries.cols()[k];
    }

    double analytic(int k) {
        return entries.analytic()[k];
    }

    public double numerical(int k) {
        return entries.numerical()[k];
    }

    /** The numerical side's error bound at entry k. */
    double error(int k) {
        return entries.errors()[k];
    }

    /** The dense analytic and numerical blocks (what the sparse comparison must agree with). */
    public Jacobian[] dense() {
        int m = Math.toIntExact(Flat.size(outputShape));
        int n = Math.toIntExact(Flat.size(inputShape));
        double[][] a = new double[m][n];
        double[][] num = new double[m][n];
        for (int k = 0; k < size(); k++) {
            a[row(k)][col(k)] = analytic(k);
            num[row(k)][col(k)] = numerical(k);
        }
        return new Jacobian[] {new Jacobian(outputShape, inputShape, a), new Jacobian(outputShape, inputShape, num)};
    }

    /**
     * Collects entries; {@link #build} puts them in row-major order (a stable sort by row, so entries added in
     * increasing input index within each row need no more).
     */
    public static final class Builder {
        private final long[] outputShape;
        private final long[] inputShape;
        private Entries added;
        private int size;

        public Builder(long[] outputShape, long[] inputShape) {
            this(outputShape, inputShape, 16);
        }

        /** @param expected how many entries the caller will add, about: room for them from the start */
        public Builder(long[] outputShape, long[] inputShape, int expected) {
            this.outputShape = outputShape;
            this.inputShape = inputShape;
            this.added = Entries.ofLength(Math.max(1, expected));
        }

        /**
         * An entry at flat output index {@code row} and flat input index {@code col}, each listed at most once, with
         * the numerical side's error bound there.
         */
        public void add(int row, int col, double analyticValue, double numericalValue, double error) {
            if (size == added.rows().length) {
                added = added.copyOf(size * 2);
            }
            added.rows()[size] = row;
            added.cols()[size] = col;
            added.analytic()[size] = analyticValue;
            added.numerical()[size] = numericalValue;
            added.errors()[size] = error;
            size++;
        }

        public SparseBlock build() {
            int m = Math.toIntExact(Flat.size(outputShape));
            boolean empty = m == 0 || Flat.size(inputShape) == 0;
            boolean hasOrigin = false;
            for (int k = 0; k < size && !hasOrigin; k++) {
                hasOrigin = added.rows()[k] == 0 && added.cols()[k] == 0;
            }
            int extra = empty || hasOrigin ? 0 : 1; // (0, 0), zero on both sides, first
            int[] start = new int[m + 1];
            for (int k = 0; k < size; k++) {
                start[added.rows()[k] + 1]++;
            }
            start[0] = extra;
            for (int r = 0; r < m; r++) {
                start[r + 1] += start[r];
            }
            Entries sorted = Entries.ofLength(size + extra);
            int[] next = Arrays.copyOf(start, m);
            for (int k = 0; k < size; k++) {
                sorted.set(next[added.rows()[k]]++, added, k);
            }
            for (int r = 0; r < m; r++) {
                sortWithinRow(sorted, start[r], start[r + 1]);
            }
            return new SparseBlock(outputShape, inputShape, sorted);
        }

        /** Entries of one row by input index; already in order unless they were added out of order. */
        private static void sortWithinRow(Entries entries, int from, int to) {
            int[] cols = entries.cols();
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
            Entries row = Entries.ofLength(order.length);
            for (int k = 0; k < order.length; k++) {
                row.set(k, entries, order[k]);
            }
            for (int k = 0; k < order.length; k++) {
                entries.set(from + k, row, k);
            }
        }
    }
}
