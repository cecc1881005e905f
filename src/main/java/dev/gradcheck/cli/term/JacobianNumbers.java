package dev.gradcheck.cli.term;

import dev.gradcheck.report.BlockPicture;
import dev.gradcheck.result.BlockJacobians;
import dev.gradcheck.result.CheckResult;
import java.io.PrintWriter;
import java.util.Locale;

/** The shell's {@code jacobians}: each block's two sides as numbers, a mismatching entry marked {@code *}. */
public final class JacobianNumbers {

    public static final int ROWS = 12;
    public static final int COLS = 8;

    private JacobianNumbers() {}

    public static void print(CheckResult result, PrintWriter out) {
        var pictures = BlockPicture.of(result.gradients());
        if (pictures.isEmpty()) {
            out.println(result.name() + ": no Jacobian block came back (status " + result.status() + ")");
        }
        for (BlockPicture p : pictures) {
            BlockJacobians b = p.gradient().jacobians();
            out.println(result.name() + " " + p.name() + "  " + p.axes());
            side("numerical", b, b.numerical(), out);
            side("analytic", b, b.analytic(), out);
            out.println();
        }
        out.flush();
    }

    private static void side(String title, BlockJacobians b, double[][] m, PrintWriter out) {
        out.println("  " + title + (b.rowCount() > ROWS || b.colCount() > COLS ? " (first " + Math.min(ROWS,
                b.rowCount()) + " x " + Math.min(COLS, b.colCount()) + " of " + b.rowCount() + " x " + b.colCount()
                + ")" : "") + ":");
        for (int r = 0; r < Math.min(ROWS, b.rowCount()); r++) {
            StringBuilder line = new StringBuilder("   ");
            for (int c = 0; c < Math.min(COLS, b.colCount()); c++) {
                line.append(String.format(Locale.ROOT, " %11.4e", m[r][c]))
                        .append(b.mark(r, c) == BlockJacobians.MISMATCH ? '*' : ' ');
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
