package dev.gradcheck.cli.term;

import dev.gradcheck.report.BlockPicture;
import dev.gradcheck.result.BlockJacobians;
import dev.gradcheck.result.CheckResult;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The shell's {@code jacobians}: each block's two sides as numbers, a mismatching entry marked {@code *}. As many
 * columns as the width holds, and in each block as many digits as it takes for every mismatching entry's two sides
 * to print differently (a difference at atol 1e-12 hides behind four digits).
 */
public final class JacobianNumbers {

    public static final int ROWS = 12;
    /** Significant digits at least, and at most (a double's 17 tell any two apart). */
    static final int MIN_DIGITS = 5;
    static final int MAX_DIGITS = 17;
    private static final String INDENT = "   ";

    private JacobianNumbers() {}

    /** @param width the columns the lines may fill (at least one Jacobian column is shown) */
    public static void print(CheckResult result, PrintWriter out, int width) {
        var pictures = BlockPicture.of(result.gradients());
        if (pictures.isEmpty()) {
            out.println(result.name() + ": no Jacobian block came back (status " + result.status() + ")");
        }
        for (BlockPicture p : pictures) {
            printBlock(result.name(), p.name(), p.axes(), p.gradient().jacobians(), out, width);
        }
        out.flush();
    }

    /** One block: its title, then numerical above analytic. */
    static void printBlock(String spec, String block, String axes, BlockJacobians b, PrintWriter out, int width) {
        int digits = digits(b);
        int cols = Math.max(1, (width - INDENT.length()) / cellWidth(digits));
        out.println(spec + " " + block + "  " + axes);
        side("numerical", b, b.numerical(), digits, cols, out);
        side("analytic", b, b.analytic(), digits, cols, out);
        out.println();
    }

    /** The fewest significant digits (from {@value #MIN_DIGITS}) at which every mismatch's two sides differ. */
    static int digits(BlockJacobians b) {
        for (int d = MIN_DIGITS; d < MAX_DIGITS; d++) {
            if (mismatchesShow(b, d)) {
                return d;
            }
        }
        return MAX_DIGITS;
    }

    private static boolean mismatchesShow(BlockJacobians b, int digits) {
        for (int r = 0; r < b.rowCount(); r++) {
            for (int c = 0; c < b.colCount(); c++) {
                if (b.mark(r, c) == BlockJacobians.MISMATCH
                        && format(b.numerical()[r][c], digits).equals(format(b.analytic()[r][c], digits))) {
                    return false;
                }
            }
        }
        return true;
    }

    static String format(double v, int digits) {
        return String.format(Locale.ROOT, "%." + (digits - 1) + "e", v);
    }

    /** A space, the sign, the digits and their point, the exponent (e+00), the mark. */
    private static int cellWidth(int digits) {
        return digits + 8;
    }

    private static void side(String title, BlockJacobians b, double[][] m, int digits, int cols, PrintWriter out) {
        int shownCols = Math.min(cols, b.colCount());
        int shownRows = Math.min(ROWS, b.rowCount());
        out.println("  " + title + (b.rowCount() > shownRows || b.colCount() > shownCols ? " (first " + shownRows
                + " x " + shownCols + " of " + b.rowCount() + " x " + b.colCount() + ")" : "") + ":");
        String cell = " %" + (cellWidth(digits) - 2) + "s";
        for (int r = 0; r < shownRows; r++) {
            StringBuilder line = new StringBuilder(INDENT);
            for (int c = 0; c < shownCols; c++) {
                line.append(String.format(Locale.ROOT, cell, format(m[r][c], digits)))
                        .append(b.mark(r, c) == BlockJacobians.MISMATCH ? '*' : ' ');
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
