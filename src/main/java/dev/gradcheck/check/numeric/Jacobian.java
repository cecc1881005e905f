package dev.gradcheck.check.numeric;

/**
 * A dense Jacobian block d output / d input, or a sampled part of one: {@code values[r][c]} is
 * d out_{rows[r]} / d in_{cols[c]}, both indices flat in row-major order. Null {@code rows} / {@code cols} mean
 * every row / column in order.
 */
public record Jacobian(long[] outputShape, long[] inputShape, double[][] values, int[] rows, int[] cols) {

    public Jacobian(long[] outputShape, long[] inputShape, double[][] values) {
        this(outputShape, inputShape, values, null, null);
    }

    public int rowCount() {
        return values.length;
    }

    public int colCount() {
        return values.length == 0 ? (cols == null ? 0 : cols.length) : values[0].length;
    }

    /** The flat output index of row {@code r}. */
    public int row(int r) {
        return rows == null ? r : rows[r];
    }

    /** The flat input index of column {@code c}. */
    public int col(int c) {
        return cols == null ? c : cols[c];
    }

    /** The entries at the given flat rows and columns (each sorted, null for all of this block's), as a block. */
    public Jacobian select(int[] flatRows, int[] flatCols) {
        int m = flatRows == null ? rowCount() : flatRows.length;
        int n = flatCols == null ? colCount() : flatCols.length;
        double[][] v = new double[m][n];
        for (int r = 0; r < m; r++) {
            int from = flatRows == null ? r : position(rows, flatRows[r]);
            for (int c = 0; c < n; c++) {
                v[r][c] = values[from][flatCols == null ? c : position(cols, flatCols[c])];
            }
        }
        return new Jacobian(outputShape, inputShape, v, flatRows == null ? rows : flatRows,
                flatCols == null ? cols : flatCols);
    }

    private static int position(int[] sortedIndex, int flat) {
        if (sortedIndex == null) {
            return flat;
        }
        int p = java.util.Arrays.binarySearch(sortedIndex, flat);
        if (p < 0) {
            throw new IllegalArgumentException("index " + flat + " is not in this block");
        }
        return p;
    }
}
