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
 * A backward wrong at more entries than the search may locate ({@link CountingRound}): where no located line holds a
 * value outside the pattern, every entry is judged on its own values and the count is dense mode's, computed here
 * beside it; where a located line holds one, or the round meets one, the count stays a lower bound. 65 x 65
 * elements: 4,225 failing entries, past the 4,096 that are recomputed alone, so that the search runs out (the
 * smallest square past it: dense mode's check of it is most of this class's time).
 */
class ExactCountTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());

    private static final int N = 65;

    private static final String TANH = """
            op: tanh
            inputs:
              x: {shape: [%d, %d], init: {uniform: [-2, 2]}}
            """.formatted(N, N);

    private static final Corruption SCALED = f -> Functions.withBackward(f, Functions.scaledBy(1 + 1e-3));

    /** tanh's backward scaled by 1 + 1e-3: every entry of the diagonal 1e-3 off, a thousand times the rule's. */
    @Test
    void aBackwardWrongAtEveryEntryOfThePatternIsCountedAsDenseModeCountsIt() throws Exception {
        GradientResult c = attempt(SCALED).rows().get(0);
        assertEquals(Verdict.MISMATCH, c.verdict(), c.note());
        assertFalse(c.note() != null && c.note().startsWith("at least"), c.note());
        GradientResult dense = CompressedJacobiansTest.jacobianRows(CompressedJacobiansTest.check(
                TANH + "compress: false\n", SCALED)).get(0);
        assertEquals(dense.mismatches().count(), c.mismatches().count(), c.note());
        assertEquals((long) N * N, c.mismatches().count(), "every entry of the diagonal");
        // every score is 1000 give or take its difference's noise (1e-7 of it), which decides which entry is the
        // worst: dense mode's and this one's may differ, their scores may not
        assertEquals(dense.maxScore(), c.maxScore(), 1e-3);
        assertArrayEquals(c.worst().outputIndex(), c.worst().inputIndex(), "an entry of the diagonal");
        assertEquals(1 + 1e-3, c.worst().analytic() / c.worst().numerical(), 1e-6, "scaled, as the backward is");
        long searched = attempt(TANH, SCALED, false).rows().get(0).evaluations();
        assertTrue(c.evaluations() > searched && c.evaluations() - searched <= TwoSidedTuning.MIN_BUDGET,
                "the count costs at most what the search may: " + c.evaluations() + " against " + searched);
    }

    /** The gradient transposed: its entries off the diagonal lie outside the pattern, so the count stays a bound. */
    @Test
    void aBackwardWithValuesOutsideThePatternKeepsItsLowerBound() throws Exception {
        GradientResult c = attempt(CompressedJacobiansTest.transposed("x", N)).rows().get(0);
        assertEquals(Verdict.MISMATCH, c.verdict(), c.note());
        assertNotNull(c.note());
        assertTrue(c.note().startsWith("at least " + c.mismatches().count()), c.note());
    }

    /**
     * Scaled, and one value outside the pattern in a row and column the search did not locate (it locates the lines
     * of the first entries sent back, rows and columns 0 to 255): the round that counts is taken, meets the value in
     * the halves of the diagonal's group of rows, and stops, so the lower bound stands.
     */
    @Test
    void aValueOutsideThePatternNoLocatedLineHoldsStopsTheCount() throws Exception {
        Corruption outside = CompressedJacobiansTest.addOutside("x", "0", 4000, 3000, 1e-2);
        TwoSidedCompression.Attempt a = attempt(f -> outside.apply(SCALED.apply(f)));
        GradientResult c = a.rows().get(0);
        assertEquals(Verdict.MISMATCH, c.verdict(), c.note());
        assertTrue(c.note().startsWith("at least " + c.mismatches().count()), c.note());
        assertTrue(a.screen().first().contains("other members hold"), "the count stopped: " + a.screen().first());
    }

    /**
     * softmax over [6, 700] scaled by 1.1: its 4,200 diagonal entries fail (past the 4,096 recomputed alone) and its
     * first run stopped before its last groups of columns, so counting could cost the halves of every group (about
     * 36,000 evaluations) against the search's 4,900: declined before it evaluates anything, the bound standing with
     * the same evaluations as without counting.
     */
    @Test
    void theCountIsDeclinedBeforeItCostsAnythingWhereItCouldCostMoreThanTheSearch() throws Exception {
        String softmax = """
                op: softmax
                attrs: {dimension: 1}
                inputs:
                  x: {shape: [6, 700], init: {uniform: [-2, 2]}}
                """;
        Corruption tenPercent = f -> Functions.withBackward(f, Functions.scaledBy(1.1));
        GradientResult declined = attempt(softmax, tenPercent, true).rows().get(0);
        GradientResult bound = attempt(softmax, tenPercent, false).rows().get(0);
        assertEquals(bound.note(), declined.note());
        assertTrue(declined.note() != null && declined.note().startsWith("at least " + declined.mismatches().count()),
                declined.note());
        assertEquals(bound.evaluations(), declined.evaluations(), "nothing spent on a count not taken");
    }

    private static TwoSidedCompression.Attempt attempt(Corruption corruption) throws Exception {
        return attempt(TANH, corruption, true);
    }

    private static TwoSidedCompression.Attempt attempt(String yaml, Corruption corruption, boolean counting)
            throws Exception {
        return TwoSidedCompressionTest.attempt(yaml, (spec, inputs) -> corruption.apply(BUILDER.build(spec, inputs)),
                TwoSidedCompression.Gate.ALWAYS.locating(true).counting(counting));
    }
}
