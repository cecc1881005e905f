package dev.gradcheck.report;

import dev.gradcheck.result.BlockJacobians;
import dev.gradcheck.result.GradientResult;
import java.util.ArrayList;
import java.util.List;

/**
 * One compared Jacobian block as three pictures, for {@code explain} and the HTML report: the numerical side, the
 * analytic side (one colour scale for both, so equal blocks look equal) and their difference |a - n| (a scale of
 * its own), each entry marked as the check judged it. A block larger than {@link #MAX_ROWS} x {@link #MAX_COLS}
 * is shown in cells that each cover several entries: a cell holds its entry of largest magnitude and its worst mark
 * (a mismatch anywhere in it shows), so shrinking never hides a disagreement.
 *
 * <p>The text renderings ({@link #glyph}) serve terminals without colour and logs; the colours ({@link #rgb}) are
 * defined once here, for the terminal's 256-colour palette ({@link #xterm256}) and the page's SVG alike.
 */
public final class BlockPicture {

    public static final int MAX_ROWS = 32;
    public static final int MAX_COLS = 40;

    /**
     * One picture.
     *
     * @param levels each cell's value over the picture's scale: -1 to 1 for a side, 0 to 1 for the difference
     * @param signed whether the levels carry a sign (the sides do; the difference is a magnitude)
     * @param scale  the magnitude a level of 1 stands for
     */
    public record Grid(String title, double[][] levels, boolean signed, double scale) {
    }

    private final GradientResult gradient;
    private final BlockJacobians block;
    private final int rowStep;
    private final int colStep;
    private final char[][] marks;

    private BlockPicture(GradientResult gradient) {
        this.gradient = gradient;
        this.block = gradient.jacobians();
        this.rowStep = Math.max(1, ceilDiv(block.rowCount(), MAX_ROWS));
        this.colStep = Math.max(1, ceilDiv(block.colCount(), MAX_COLS));
        this.marks = new char[ceilDiv(block.rowCount(), rowStep)][ceilDiv(block.colCount(), colStep)];
        for (int r = 0; r < block.rowCount(); r++) {
            for (int c = 0; c < block.colCount(); c++) {
                char m = block.mark(r, c);
                char[] row = marks[r / rowStep];
                if (row[c / colStep] == 0 || rank(m) > rank(row[c / colStep])) {
                    row[c / colStep] = m;
                }
            }
        }
    }

    /** The pictures of a result's block, or null when it carries no matrices (or an empty block). */
    public static BlockPicture of(GradientResult gradient) {
        BlockJacobians b = gradient.jacobians();
        return b == null || b.rowCount() == 0 || b.colCount() == 0 ? null : new BlockPicture(gradient);
    }

    /** Every block of these rows that carries its matrices. */
    public static List<BlockPicture> of(List<GradientResult> gradients) {
        List<BlockPicture> pictures = new ArrayList<>();
        for (GradientResult g : gradients == null ? List.<GradientResult>of() : gradients) {
            BlockPicture p = of(g);
            if (p != null) {
                pictures.add(p);
            }
        }
        return pictures;
    }

    public GradientResult gradient() {
        return gradient;
    }

    /** {@code d0/dx}, as the table names the block. */
    public String name() {
        return GradientText.name(gradient);
    }

    /** What the table says of the block, and under it how many entries mismatch and where. */
    public List<String> description(String tolerance) {
        List<String> lines = new ArrayList<>();
        lines.add(DetailLines.gradientLine(gradient, tolerance));
        lines.addAll(DetailLines.mismatchLines(gradient).stream().map(String::strip).toList());
        return lines;
    }

    /** How the pictures' axes map to the block: rows are output entries, columns input entries. */
    public String axes() {
        String out = GradientText.outputLabel(gradient.output()) + shape(block.outputShape());
        String in = gradient.input() + shape(block.inputShape());
        String cells = rowStep == 1 && colStep == 1 ? "one cell per entry"
                : "each cell covers " + rowStep + " x " + colStep + " entries (its largest; a mismatch in it shows)";
        String sampled = block.rows() != null || block.cols() != null ? "; the sampled entries only" : "";
        return "rows: " + block.rowCount() + " entries of " + out + ", columns: " + block.colCount() + " entries of "
                + in + " (row-major); " + cells + sampled;
    }

    /** How many entries of the block's rows one picture row covers (1 below {@link #MAX_ROWS} rows). */
    public int rowStep() {
        return rowStep;
    }

    /** How many entries of the block's columns one picture column covers. */
    public int colStep() {
        return colStep;
    }

    public int rows() {
        return marks.length;
    }

    public int cols() {
        return marks[0].length;
    }

    /** The cell's worst mark ({@link BlockJacobians#AGREES}, MISMATCH, MASKED, KINK). */
    public char mark(int r, int c) {
        return marks[r][c];
    }

    public Grid numerical() {
        return side("numerical", block.numerical(), sideScale());
    }

    public Grid analytic() {
        return side("analytic", block.analytic(), sideScale());
    }

    /** |analytic - numerical|, on its own scale. */
    public Grid difference() {
        double[][] diff = new double[block.rowCount()][block.colCount()];
        for (int r = 0; r < diff.length; r++) {
            for (int c = 0; c < diff[r].length; c++) {
                diff[r][c] = Math.abs(block.analytic()[r][c] - block.numerical()[r][c]);
            }
        }
        return grid("|analytic - numerical|", diff, maxAbs(diff), false);
    }

    private Grid side(String title, double[][] values, double scale) {
        return grid(title, values, scale, true);
    }

    private double sideScale() {
        return Math.max(maxAbs(block.numerical()), maxAbs(block.analytic()));
    }

    private Grid grid(String title, double[][] values, double scale, boolean signed) {
        double[][] levels = new double[rows()][cols()];
        for (int r = 0; r < values.length; r++) {
            for (int c = 0; c < values[r].length; c++) {
                double v = values[r][c];
                double level = !Double.isFinite(v) ? Math.copySign(1, v) : scale > 0 ? v / scale : 0;
                double[] cellRow = levels[r / rowStep];
                if (Math.abs(level) > Math.abs(cellRow[c / colStep]) || Double.isNaN(level)) {
                    cellRow[c / colStep] = level;
                }
            }
        }
        return new Grid(title, levels, signed, scale);
    }

    /**
     * Two characters for a cell, for a screen without colour: a side as its sign and magnitude in tenths of the
     * scale ({@code -9}, {@code  4}, {@code  .} for zero); the difference as its mark and magnitude ({@code X7} a
     * mismatch, {@code  2} an entry within tolerance, {@code  m} masked, {@code  k} at a kink).
     */
    public static String glyph(Grid grid, double level, char mark) {
        if (Double.isNaN(level)) {
            return "??";
        }
        if (!grid.signed()) {
            if (mark == BlockJacobians.MASKED || mark == BlockJacobians.KINK) {
                return " " + mark;
            }
            return (mark == BlockJacobians.MISMATCH ? "X" : " ") + digit(level);
        }
        return (level < 0 ? "-" : " ") + digit(level);
    }

    private static char digit(double level) {
        double a = Math.abs(level);
        if (a == 0) {
            return '.';
        }
        return (char) ('0' + Math.max(0, Math.min(9, (int) Math.round(a * 9))));
    }

    /**
     * A cell's colour as {r, g, b}: a side from blue (negative) through white (zero) to red (positive); the
     * difference from white to orange-red.
     */
    public static int[] rgb(Grid grid, double level) {
        if (Double.isNaN(level)) {
            return new int[] {128, 128, 128};
        }
        double a = Math.min(1, Math.abs(level));
        int fade = (int) Math.round(255 * (1 - a));
        if (!grid.signed()) {
            return new int[] {255, (int) Math.round(255 * (1 - 0.7 * a)), fade};
        }
        return level < 0 ? new int[] {fade, fade, 255} : new int[] {255, fade, fade};
    }

    /** The colour of {@link #rgb} in the terminal's 256-colour palette (its 6x6x6 cube). */
    public static int xterm256(Grid grid, double level) {
        int[] c = rgb(grid, level);
        return 16 + 36 * cube(c[0]) + 6 * cube(c[1]) + cube(c[2]);
    }

    private static int cube(int component) {
        return (int) Math.round(component / 255.0 * 5);
    }

    /** Which mark a cell of several entries shows: a mismatch over a kink over masked over agreement. */
    private static int rank(char mark) {
        return switch (mark) {
            case BlockJacobians.MISMATCH -> 3;
            case BlockJacobians.KINK -> 2;
            case BlockJacobians.MASKED -> 1;
            default -> 0;
        };
    }

    private static double maxAbs(double[][] m) {
        double max = 0;
        for (double[] row : m) {
            for (double v : row) {
                if (Double.isFinite(v)) {
                    max = Math.max(max, Math.abs(v));
                }
            }
        }
        return max;
    }

    private static String shape(long[] shape) {
        return java.util.Arrays.toString(shape);
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
