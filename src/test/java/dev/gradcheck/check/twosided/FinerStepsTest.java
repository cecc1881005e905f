package dev.gradcheck.check.twosided;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.DrawnInputs;
import dev.gradcheck.check.Specs;
import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.OpSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Entries near the tolerance at the step h, taken again at finer steps along their groups' directions
 * ({@link FinerSteps}), where the probe at h reads the points the column pass evaluated instead of evaluating them
 * again: a right backward passes, and one entry of about 1e-3 off by 1.5 times what the tolerance allows (1e-6 of
 * it, below the rounding bound at h, so only a finer step resolves it) fails, named and counted alone, with the
 * dense check's own figures. layer_norm's entries about 1e-3 are what make its finer steps at [64, 1000].
 */
class FinerStepsTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());

    static final String LAYER_NORM = """
            op: layer_norm
            attrs: {dimensions: [1]}
            inputs:
              x: {shape: [1, 1000], init: {uniform: [-2, 2]}}
              gain: {shape: [1000], init: {uniform: [0.5, 1.5]}}
              bias: {shape: [1000], init: {uniform: [-1, 1]}}
            """;

    @Test
    void aRightBackwardPassesWithItsNearEntriesTakenAtFinerSteps() throws Exception {
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(LAYER_NORM, f -> f);
        assertNotNull(a.rows(), a.declined());
        assertFalse(a.screen().near().isEmpty(), "entries near the tolerance at h");
        assertTrue(a.screen().near().stream().allMatch(TwoSidedScreen.Flagged::keptPoints), "their points kept");
        a.rows().forEach(r -> assertEquals(Verdict.PASS, r.verdict(), r.input()));
    }

    @Test
    void anEntryOfAboutOneThousandthOffByALittleMoreThanTheToleranceFailsAsInDenseMode() throws Exception {
        int row = 70;
        failsAsInDenseMode(row, entryBetween(LAYER_NORM, "x", row, 1.05e-3, 3e-3));
    }

    /**
     * The same along a group that the probe at 100·H settles without the half step at H
     * ({@link dev.gradcheck.check.numeric.MostPreciseStep#settledByCoarse}): x[0, 2]'s, whose near entries' estimates
     * there are consistent with H's within its rounding model (seed 7), the wrong entry's among them.
     */
    @Test
    void anEntryOffByALittleMoreThanTheToleranceFailsAlongAGroupTheCoarseRungSettles() throws Exception {
        double entry = Math.abs(rowOf(LAYER_NORM, "x", SETTLED_ROW)[2]);
        assertTrue(entry > 1e-3 && entry < 3e-3, "about 1e-3: " + entry);
        failsAsInDenseMode(SETTLED_ROW, 2);
    }

    /** An output row of x[0, 2]'s group whose entry is about 1e-3 and not near the tolerance when right. */
    private static final int SETTLED_ROW = 1;

    private static void failsAsInDenseMode(int row, int col) throws Exception {
        CompressedJacobiansTest.Corruption off = CompressedJacobiansTest.oneElementOff("x", "0", row, col, 1.5e-6);
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(LAYER_NORM, off);
        assertNotNull(a.rows(), a.declined());
        assertTrue(a.screen().near().stream().anyMatch(f -> f.row() == row && f.col() == col),
                "taken at finer steps: at h its error hides in the rounding bound");
        GradientResult c = a.rows().get(0);
        GradientResult d = CompressedJacobiansTest.jacobianRows(
                CompressedJacobiansTest.check(LAYER_NORM + "compress: false\n", off)).get(0);
        assertEquals(Verdict.MISMATCH, d.verdict(), "dense mode catches it");
        assertEquals(d.verdict(), c.verdict());
        assertEquals(1, c.mismatches().count());
        assertArrayEquals(Flat.unravel(col, new long[] {1, 1000}), c.worst().inputIndex());
        assertArrayEquals(d.worst().outputIndex(), c.worst().outputIndex());
        assertEquals(d.worst().numerical(), c.worst().numerical(), 0);
        assertEquals(d.maxScore(), c.maxScore(), 0);
    }

    /** The first column of {@code in} whose entry in output row {@code row} lies in [lo, hi] in magnitude. */
    static int entryBetween(String yaml, String in, int row, double lo, double hi) throws Exception {
        double[] entries = rowOf(yaml, in, row);
        for (int c = 0; c < entries.length; c++) {
            if (Math.abs(entries[c]) >= lo && Math.abs(entries[c]) <= hi) {
                return c;
            }
        }
        throw new AssertionError("no entry of row " + row + " between " + lo + " and " + hi);
    }

    /** Output row {@code row} of the Jacobian by {@code in}, from the backward. */
    private static double[] rowOf(String yaml, String in, int row) throws Exception {
        OpSpec spec = Specs.parse(yaml);
        DrawnInputs x = DrawnInputs.draw(spec, Settings.of(spec).seed());
        try (Differentiable f = BUILDER.build(spec, x.test())) {
            Map<String, INDArray> atX = f.forward(x.test());
            Map<String, INDArray> oneHot = new HashMap<>();
            atX.forEach((k, v) -> oneHot.put(k, v.like().assign(0)));
            oneHot.get("0").reshape(-1).putScalar(row, 1);
            return Flat.values(f.vjp(x.test(), oneHot, List.of(in)).get(in));
        }
    }
}
