package dev.gradcheck.check.twosided;

import static dev.gradcheck.check.Rows.jacobian;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.Functions;
import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.colouring.CompressedJacobiansTest.Corruption;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Patterns that run backwards (negative strides: reverse, a flipped kernel) where both sides are compressed: the
 * windows move down as the output index grows, and both colourings hold as for windows that move up. reverse on
 * [256, 256] was refused ("no window pattern") before 2026-11-28; it is now checked, and a reverse off by one at one
 * end fails with dense mode's count.
 */
class BackwardWindowsTest {

    /** reverse over both dimensions of an n x n input. */
    static String reverse(int n) {
        return """
                op: reverse
                attrs: {dimensions: [0, 1]}
                inputs:
                  x: {shape: [%d, %d]}
                """.formatted(n, n);
    }

    /**
     * reverse's backward off by one at one end: dx[i, 0] reads the cotangent at [n−1−i, n−2] (its neighbour) where it
     * should read [n−1−i, n−1]. Every entry of column dx[·, 0] is wrong twice: a missing 1 and an extra one.
     */
    static Corruption offByOneAtTheEnd(int n) {
        return f -> new Functions.Delegate(f) {
            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                Map<String, INDArray> g = new HashMap<>(f.vjp(in, ct, wrt));
                double[] gx = Flat.values(g.get("x"));
                double[] c = Flat.values(ct.values().iterator().next());
                for (int i = 0; i < n; i++) {
                    gx[i * n] = c[(n - 1 - i) * n + n - 2];
                }
                g.put("x", Flat.array(gx, in.get("x").shape()).castTo(g.get("x").dataType()));
                return g;
            }
        };
    }

    @Test
    void windowsRunningBackwardsHoldTheirColumnsAndColourWithoutSharing() {
        // out[i, j] reads x[8 − i, ·] (reverse) and w[10 − 2j .. 12 − 2j] (a flipped window of 3, stride −2)
        WindowPattern p = new WindowPattern(new long[] {9, 5}, List.of(
                new WindowPattern.Input("x", new long[] {9, 4}, new WindowPattern.Dim[] {
                    new WindowPattern.Dim(0, -1, 8, 1), WindowPattern.Dim.whole()}),
                new WindowPattern.Input("w", new long[] {13}, new WindowPattern.Dim[] {
                    new WindowPattern.Dim(1, -2, 10, 3)})));
        holdTogether(p);
    }

    /**
     * A pattern's windows and columns agree (row p's window holds column c exactly when c's rows hold p), each
     * window is listed in ascending order with {@link WindowPattern#rankInRow} its position, and no two members of
     * a group of rows or of columns share an element.
     */
    static void holdTogether(WindowPattern p) {
        for (WindowPattern.Input in : p.inputs()) {
            int cols = Math.toIntExact(Flat.size(in.shape()));
            for (int row = 0; row < p.rows(); row++) {
                assertTrue(WindowPattern.size(p.window(row, in)) > 0, in.name() + ": row " + row + " reads nothing");
                for (int c = 0; c < cols; c++) {
                    assertEquals(WindowPattern.contains(p.window(row, in), in.shape(), c),
                            WindowPattern.contains(p.column(in, c), p.outShape(), row),
                            in.name() + "[" + c + "] and row " + row + ": the window and the column disagree");
                }
                int r = row;
                int[] rank = {0};
                int[] last = {-1};
                WindowPattern.forEach(p.window(row, in), in.shape(), c -> {
                    assertTrue(c > last[0], in.name() + ": row " + r + "'s window out of order at " + c);
                    assertEquals(rank[0]++, WindowPattern.rankInRow(r, p.rowBoxes(in), Flat.unravel(c, in.shape()),
                            in.shape()), in.name() + ": row " + r + ", column " + c);
                    last[0] = c;
                });
                assertEquals(WindowPattern.size(p.window(row, in)), rank[0], in.name() + ": row " + r + "'s size");
            }
            for (int[] g : p.columnGroups(in)) {
                boolean[] seen = new boolean[p.rows()];
                for (int c : g) {
                    WindowPattern.forEach(p.column(in, c), p.outShape(), r -> {
                        assertTrue(!seen[r], in.name() + ": two columns of a group share row " + r);
                        seen[r] = true;
                    });
                }
            }
        }
        for (int[] g : p.rowGroups()) {
            for (WindowPattern.Input in : p.inputs()) {
                boolean[] seen = new boolean[Math.toIntExact(Flat.size(in.shape()))];
                for (int row : g) {
                    WindowPattern.forEach(p.window(row, in), in.shape(), c -> {
                        assertTrue(!seen[c], "two rows of a group share " + in.name() + "[" + c + "]");
                        seen[c] = true;
                    });
                }
            }
        }
    }

    @Test
    void reverseIsCheckedOnBothSidesCompressedAsDenseModeChecksIt() throws Exception {
        String small = reverse(12);
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(small, f -> f);
        assertNotNull(a.rows(), a.declined() + " " + (a.screen() == null ? "" : a.screen().first()));
        assertEquals(Verdict.PASS, a.rows().get(0).verdict());
        GradientResult dense = jacobian(CompressedJacobiansTest.check(small + "compress: false\n", f -> f));
        assertEquals(Verdict.PASS, dense.verdict());
        assertTrue(a.rows().get(0).evaluations() < dense.evaluations());
    }

    @Test
    void aReverseOffByOneAtOneEndFailsAsInDenseMode() throws Exception {
        String small = reverse(12);
        GradientResult dense = jacobian(CompressedJacobiansTest.check(small + "compress: false\n",
                offByOneAtTheEnd(12)));
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(small, offByOneAtTheEnd(12), true);
        assertNotNull(a.rows(), a.declined() + " " + (a.screen() == null ? "" : a.screen().first()));
        assertEquals(Verdict.MISMATCH, dense.verdict());
        assertEquals(2 * 12, dense.mismatches().count(), "a missing and an extra entry per row of dx[·, 0]");
        assertEquals(Verdict.MISMATCH, a.rows().get(0).verdict());
        assertEquals(dense.mismatches().count(), a.rows().get(0).mismatches().count());
    }

    private static final int LAYER = 256;

    @Tag("slow") // two checks of 65,536 elements in full mode (dense blocks: 64 GiB)
    @Test
    void atLayerSizesReverseIsCheckedAndAReverseOffByOneFails() {
        CheckResult right = CompressedJacobiansTest.check(reverse(LAYER) + "mode: full\n", f -> f);
        assertEquals(Status.PASSED, right.status(), right.message());
        assertEquals(Verdict.PASS, jacobian(right).verdict());
        CheckResult wrong = CompressedJacobiansTest.check(reverse(LAYER) + "mode: full\n", offByOneAtTheEnd(LAYER));
        assertEquals(Status.FAILED, wrong.status(), wrong.message());
        GradientResult row = jacobian(wrong);
        assertEquals(Verdict.MISMATCH, row.verdict());
        System.out.println("reverse [256,256]: right " + jacobian(right).evaluations() + " evaluations, off by one "
                + row.evaluations() + ", " + row.mismatches().count() + " mismatches: " + row.note());
    }
}
