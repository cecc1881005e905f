package dev.gradcheck.result;

/**
 * The two sides of one Jacobian block as the check compared them, for reports that show the matrices (heat maps,
 * {@code check --dump}). Carried by a {@link GradientResult} only when the run asks for it
 * ({@link JacobianCapture}), so ordinary runs do not ship matrices between processes.
 *
 * <p>{@code numerical[r][c]} and {@code analytic[r][c]} are d out[rows[r]] / d in[cols[c]], flat row-major indices
 * into {@code outputShape} and {@code inputShape}; null {@code rows} or {@code cols} mean every index in order (a
 * block checked whole). {@code marks[r].charAt(c)} says how that entry was judged: {@link #AGREES},
 * {@link #MISMATCH}, {@link #MASKED} (left out by the spec's {@code mask:}) or {@link #KINK} (its column sits at a
 * nondifferentiable point and was left out).
 */
public record BlockJacobians(long[] outputShape, long[] inputShape, int[] rows, int[] cols, double[][] numerical,
                             double[][] analytic, String[] marks) {

    public static final char AGREES = '.';
    public static final char MISMATCH = 'X';
    public static final char MASKED = 'm';
    public static final char KINK = 'k';

    public int rowCount() {
        return numerical.length;
    }

    public int colCount() {
        return numerical.length == 0 ? 0 : numerical[0].length;
    }

    /** The flat output index of row {@code r}. */
    public int row(int r) {
        return rows == null ? r : rows[r];
    }

    /** The flat input index of column {@code c}. */
    public int col(int c) {
        return cols == null ? c : cols[c];
    }

    public char mark(int r, int c) {
        return marks[r].charAt(c);
    }
}
