package dev.gradcheck.check.twosided;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.Functions;
import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.colouring.CompressedJacobiansTest.Corruption;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Verdict;
import org.junit.jupiter.api.Test;

/**
 * A backward wrong at more entries than the search may locate: where no located line holds a value outside the
 * pattern, every compressed value is one entry's, and the count is exact, the dense check's (TwoSidedCompression's
 * {@code counted}); where one does, the count stays a lower bound. 72 x 72 elements: 5,184 failing entries, past the
 * 4,096 that are recomputed alone, so that the search runs out.
 */
class ExactCountTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());

    private static final String TANH = """
            op: tanh
            inputs:
              x: {shape: [72, 72], init: {uniform: [-2, 2]}}
            """;

    /**
     * tanh's backward scaled by 1 + 1e-3: every entry of the diagonal 1e-3 off, a thousand times what the default rule
     * allows, so dense mode fails all 5,184 (measured on 2026-11-28 with {@code compress: false}: 5,184, worst score
     * 1000.00006; the dense check takes a minute here, so the count it gives is asserted rather than rerun).
     */
    @Test
    void aBackwardWrongAtEveryEntryOfThePatternIsCountedAsDenseModeCountsIt() throws Exception {
        GradientResult c = attempt(f -> Functions.withBackward(f, Functions.scaledBy(1 + 1e-3))).rows().get(0);
        assertEquals(Verdict.MISMATCH, c.verdict(), c.note());
        assertFalse(c.note() != null && c.note().startsWith("at least"), c.note());
        assertEquals(72 * 72, c.mismatches().count(), c.note());
        // every score is 1000 give or take the differences' noise (1e-7 of it), which decides which entry is the
        // worst: dense mode's and this one's may differ, their scores may not
        assertEquals(1000, c.maxScore(), 1e-3);
        assertArrayEquals(c.worst().outputIndex(), c.worst().inputIndex(), "an entry of the diagonal");
        assertEquals(1 + 1e-3, c.worst().analytic() / c.worst().numerical(), 1e-6, "scaled, as the backward is");
    }

    /** The gradient transposed: its entries off the diagonal lie outside the pattern, so the count stays a bound. */
    @Test
    void aBackwardWithValuesOutsideThePatternKeepsItsLowerBound() throws Exception {
        GradientResult c = attempt(CompressedJacobiansTest.transposed("x", 72)).rows().get(0);
        assertEquals(Verdict.MISMATCH, c.verdict(), c.note());
        assertNotNull(c.note());
        assertTrue(c.note().startsWith("at least " + c.mismatches().count()), c.note());
    }

    private static TwoSidedCompression.Attempt attempt(Corruption corruption) throws Exception {
        return TwoSidedCompressionTest.attempt(TANH, (spec, inputs) -> corruption.apply(BUILDER.build(spec, inputs)),
                TwoSidedCompression.Gate.ALWAYS.locating(true));
    }
}
