package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.BlockJacobians;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Verdict;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BlockPictureTest {

    /** A block of {@code n x n} entries, the analytic side the numerical one except at (r, c). */
    static GradientResult block(int n, int wrongRow, int wrongCol) {
        double[][] numerical = new double[n][n];
        double[][] analytic = new double[n][n];
        String[] marks = new String[n];
        for (int r = 0; r < n; r++) {
            char[] m = new char[n];
            Arrays.fill(m, BlockJacobians.AGREES);
            for (int c = 0; c < n; c++) {
                numerical[r][c] = r == c ? 1.0 : (r + c) % 2 == 0 ? 0.0 : -0.5;
                analytic[r][c] = numerical[r][c];
            }
            if (r == wrongRow) {
                analytic[r][wrongCol] += 0.25;
                m[wrongCol] = BlockJacobians.MISMATCH;
            }
            marks[r] = new String(m);
        }
        BlockJacobians b = new BlockJacobians(new long[] {n}, new long[] {n}, null, null, numerical, analytic, marks);
        return new GradientResult("0", "x", CheckKind.JACOBIAN, 1, wrongRow < 0 ? Verdict.PASS : Verdict.MISMATCH,
                0.25, 0.25, 2.5e5, null, 3L * n, 0.001, null, null)
                .withDiagnosis(new Mismatches(wrongRow < 0 ? 0 : 1, (long) n * n, 0, null, null, null, null), b);
    }

    @Test
    void equalSidesDrawEqualAndTheirDifferenceShowsNoMismatch() {
        BlockPicture p = BlockPicture.of(block(4, -1, -1));
        for (int r = 0; r < 4; r++) {
            assertArrayEquals(p.numerical().levels()[r], p.analytic().levels()[r]);
            for (int c = 0; c < 4; c++) {
                assertEquals(" .", BlockPicture.glyph(p.difference(), p.difference().levels()[r][c], p.mark(r, c)));
            }
        }
        assertEquals(" 9", BlockPicture.glyph(p.numerical(), 1.0, '.'));
        assertEquals("-5", BlockPicture.glyph(p.numerical(), -0.5, '.'));
        assertEquals(" .", BlockPicture.glyph(p.numerical(), 0.0, '.'));
    }

    @Test
    void theWrongEntryIsMarkedAndIsTheDifferencesLargest() {
        BlockPicture p = BlockPicture.of(block(4, 2, 1));
        assertEquals(BlockJacobians.MISMATCH, p.mark(2, 1));
        assertEquals("X9", BlockPicture.glyph(p.difference(), p.difference().levels()[2][1], p.mark(2, 1)));
        assertEquals(0.25, p.difference().scale(), 1e-12);
        assertEquals("one cell per entry", p.axes().substring(p.axes().indexOf("; ") + 2));
        assertTrue(p.axes().startsWith("rows: 4 entries of out[4], columns: 4 entries of x[4]"), p.axes());
    }

    @Test
    void aLargeBlockShrinksIntoCellsWithoutHidingItsOneMismatch() {
        BlockPicture p = BlockPicture.of(block(100, 77, 3));
        assertTrue(p.rows() <= BlockPicture.MAX_ROWS && p.cols() <= BlockPicture.MAX_COLS,
                p.rows() + " x " + p.cols());
        int marked = 0;
        for (int r = 0; r < p.rows(); r++) {
            for (int c = 0; c < p.cols(); c++) {
                marked += p.mark(r, c) == BlockJacobians.MISMATCH ? 1 : 0;
            }
        }
        assertEquals(1, marked, "the one wrong entry's cell, and no other");
        assertTrue(p.axes().contains("each cell covers 4 x 3 entries"), p.axes());
    }

    @Test
    void coloursRunFromBlueThroughWhiteToRedAndMapIntoTheTerminalsCube() {
        BlockPicture p = BlockPicture.of(block(2, -1, -1));
        assertArrayEquals(new int[] {255, 255, 255}, BlockPicture.rgb(p.numerical(), 0));
        assertArrayEquals(new int[] {0, 0, 255}, BlockPicture.rgb(p.numerical(), -1));
        assertArrayEquals(new int[] {255, 0, 0}, BlockPicture.rgb(p.numerical(), 1));
        assertEquals(231, BlockPicture.xterm256(p.numerical(), 0), "white");
        assertEquals(196, BlockPicture.xterm256(p.numerical(), 1), "red");
        assertEquals(21, BlockPicture.xterm256(p.numerical(), -1), "blue");
        assertFalse(Arrays.equals(BlockPicture.rgb(p.difference(), 1), BlockPicture.rgb(p.difference(), 0)));
    }

    @Test
    void aRowWithoutMatricesHasNoPicture() {
        GradientResult bare = new GradientResult("0", "x", CheckKind.JACOBIAN, 1, Verdict.PASS, 0, 0, 0, null, 1L,
                0.0, null, null);
        assertNull(BlockPicture.of(bare));
    }
}
