package dev.gradcheck.check.twosided;

import static dev.gradcheck.check.Rows.jacobian;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.Functions;
import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.colouring.CompressedJacobiansTest.Corruption;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import org.junit.jupiter.api.Test;

/**
 * Max pooling where both sides are compressed: its backward gives each output one nonzero, at its window's maximum,
 * so neighbouring rows' nonzeros move by the stride give or take the window's width and the probes of neighbours
 * show no window; rows a quarter of the output apart show the stride ({@code PatternProbe}), the windows hold every
 * maximum, and the check runs in a few dozen evaluations where dense blocks need 150 GiB. A backward that routes a
 * window's gradient to the wrong element, or puts a value outside the windows, fails as in dense mode.
 */
class MaxPoolAtSizeTest {

    /** 2×2 windows, stride 2, NCHW ({@code isNCHW: 0} is ND4J's NCHW). */
    private static String maxpool(int channels, int size) {
        return """
                op: maxpool2d
                attrs: {kH: 2, kW: 2, sH: 2, sW: 2, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 0, extraParam0: 0,
                        isNCHW: 0}
                inputs:
                  x: {shape: [1, %d, %d, %d], init: {uniform: [-2, 2]}}
                """.formatted(channels, size, size);
    }

    /** 2048 inputs, 512 outputs: dense blocks fit, to compare with; the far probes 4 steps from the middle. */
    private static final String SMALL = maxpool(2, 32);

    /**
     * Each window's gradient moved to its top-left element: in every window, or only in the first whose maximum is
     * elsewhere (2 wrong entries). The window's maximum is read from the inputs, so the same window whatever the
     * cotangent.
     */
    static Corruption toTopLeft(boolean everyWindow) {
        return TiesAtSizeTest.rewritingX((x, gx, shape) -> {
            int w = (int) shape[3];
            for (int corner = 0; corner < x.length; corner++) {
                if ((corner / w) % 2 == 1 || corner % 2 == 1) {
                    continue; // not a window's top-left
                }
                int[] cells = {corner, corner + 1, corner + w, corner + w + 1};
                int max = corner;
                double sum = 0;
                for (int c : cells) {
                    max = x[c] > x[max] ? c : max;
                    sum += gx[c];
                }
                if (max == corner && !everyWindow) {
                    continue;
                }
                for (int c : cells) {
                    gx[c] = c == corner ? sum : 0;
                }
                if (!everyWindow) {
                    break;
                }
            }
        });
    }

    @Test
    void theProbesGuessTheWindowsAndARightBackwardPassesWithTheDenseFigures() throws Exception {
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(SMALL, f -> f);
        assertNull(a.declined(), "declined: " + a.declined());
        assertNotNull(a.rows(), a.screen() == null ? "" : a.screen().first());
        GradientResult dense = jacobian(CompressedJacobiansTest.check(SMALL + "compress: false\n", f -> f));
        GradientResult compressed = a.rows().get(0);
        assertEquals(Verdict.PASS, compressed.verdict(), compressed.note());
        assertEquals(dense.maxAbsError(), compressed.maxAbsError(), 1e-9);
        assertTrue(compressed.evaluations() * 20 < dense.evaluations(), compressed.evaluations() + " against "
                + dense.evaluations());
    }

    @Test
    void oneWindowsGradientAtTheWrongElementFailsWithDenseModesCountAndWorstEntry() throws Exception {
        Corruption wrong = toTopLeft(false);
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(SMALL, wrong, true);
        assertNotNull(a.rows(), a.screen() == null ? a.declined() : a.screen().first());
        GradientResult dense = jacobian(CompressedJacobiansTest.check(SMALL + "compress: false\n", wrong));
        GradientResult compressed = a.rows().get(0);
        assertEquals(Verdict.MISMATCH, dense.verdict());
        assertEquals(2, dense.mismatches().count(), "the maximum's entry and the top-left's");
        assertEquals(dense.verdict(), compressed.verdict(), compressed.note());
        assertEquals(dense.mismatches().count(), compressed.mismatches().count(), compressed.note());
        assertEquals(dense.maxScore(), compressed.maxScore(), 0);
    }

    @Test
    void aValueOutsideTheWindowsIsLocatedAndCountedAsInDenseMode() throws Exception {
        Corruption outside = CompressedJacobiansTest.addOutside("x", "0", 3, 1500, 1e-4);
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(SMALL, outside, true);
        assertNotNull(a.rows(), a.screen() == null ? a.declined() : a.screen().first());
        GradientResult dense = jacobian(CompressedJacobiansTest.check(SMALL + "compress: false\n", outside));
        assertEquals(1, dense.mismatches().count());
        assertEquals(Verdict.MISMATCH, a.rows().get(0).verdict());
        assertEquals(1, a.rows().get(0).mismatches().count(), a.rows().get(0).note());
    }

    /** x [1, 64, 56, 56], ResNet's first pooling's size: 150 GiB as dense blocks, refused before. */
    @Test
    void atLayerSizeARightBackwardPassesAndAWrongOneFails() {
        String big = maxpool(64, 56) + "mode: full\n";
        CheckResult right = CompressedJacobiansTest.check(big, f -> f);
        assertEquals(Status.PASSED, right.status(), right.message());
        CheckResult routed = CompressedJacobiansTest.check(big, toTopLeft(true));
        assertEquals(Status.FAILED, routed.status(), routed.message());
        CheckResult scaled = CompressedJacobiansTest.check(big, f -> Functions.withBackward(f,
                Functions.scaledBy(1 + 1e-3)));
        assertEquals(Status.FAILED, scaled.status(), scaled.message());
    }
}
