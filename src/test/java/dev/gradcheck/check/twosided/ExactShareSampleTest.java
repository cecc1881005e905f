package dev.gradcheck.check.twosided;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.Functions;
import dev.gradcheck.check.GradientChecker;
import dev.gradcheck.check.Specs;
import dev.gradcheck.check.colouring.CompressedJacobiansTest.Corruption;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.MemoryBudget;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The share of a compact block's values that need a double, estimated from a random sample of the row pass's groups
 * ({@link ExactShareSample}): the run stops after the sample only where the estimate's bound is over the block's room
 * for exact values. softmax over [2, 512] from uniform [-4, 4] has ~18% of its values needing a double (its row
 * pass's sample: 64 of 512 groups), over the 1/16 it may hold; from [-1, 1], ~2%, which fits.
 */
class ExactShareSampleTest {

    private static final MemoryBudget COMPACT_ONLY = new MemoryBudget(4L << 20);

    private static String softmax(int columns, double range) {
        return """
                op: softmax
                attrs: {dimension: 1}
                inputs:
                  x: {shape: [2, %d], init: {uniform: [%s, %s]}}
                tolerance: {atol: 1.0e-10, rtol: 1.0e-6}
                """.formatted(columns, -range, range);
    }

    /** Every sampled group with {@code exact} of its 1,000 entries exact, {@code crowded} groups with all of them. */
    private static ExactShareSample sample(int groups, int exact, int crowded) {
        ExactShareSample s = ExactShareSample.of(1, groups);
        for (int k = 0; k < s.size(); k++) {
            s.add(k, 0, 1000, k < crowded ? 1000 : exact);
        }
        return s;
    }

    @Test
    void aSampleWhoseBoundIsOverTheRoomStopsTheRunAndSaysWhy() {
        ExactShareSample s = sample(4096, 200, 0); // 20% in every group, room for 10%
        String why = s.tooExact(0, "k", 4096L * 1000, 409_600);
        assertNotNull(why);
        assertEquals("about 20.0% of k's analytic values need more than a float (at least 20.0%, from 256 of its"
                + " 4,096 row groups), more than the 10.0% (409,600) it has room for exactly", why);
    }

    @Test
    void anEstimateJustOverTheRoomOrCrowdedIntoAFewGroupsLetsTheRunGoOn() {
        // 12.5% exact, all in 32 of the 256 sampled groups: over the room of 10%, but not beyond doubt
        ExactShareSample crowded = sample(4096, 0, 32);
        assertEquals(0.125, crowded.share(0).estimate(), 1e-12);
        assertNull(crowded.tooExact(0, "k", 4096L * 1000, 409_600));
        // a share equal to the room in every group: the run may fit, and goes on
        assertNull(sample(4096, 100, 0).tooExact(0, "k", 4096L * 1000, 409_600));
    }

    @Test
    void theSampleComesFirstInTheOrderDrawnTheSameEveryTimeAndNoneIsTakenWhereThePassIsShort() {
        ExactShareSample s = ExactShareSample.of(1, 1000);
        int[] order = s.order();
        assertEquals(1000 / ExactShareSample.SHARE_OF_PASS, s.size());
        assertArrayEquals(order, ExactShareSample.of(1, 1000).order());
        int[] sorted = order.clone();
        Arrays.sort(sorted);
        assertArrayEquals(java.util.stream.IntStream.range(0, 1000).toArray(), sorted); // every group once
        for (int k = 1; k < order.length; k++) {
            assertTrue(k == s.size() || order[k - 1] < order[k]); // each part ascending
        }
        assertTrue(order[s.size() - 1] > s.size()); // the sample is spread, not the first groups
        assertNull(ExactShareSample.of(1, 8 * ExactShareSample.MIN_GROUPS - 1));
    }

    @Test
    void aBlockWithTooManyValuesNeedingADoubleIsRefusedAfterTheSampleWithTheExactBudget() throws Exception {
        TwoSidedCompression.Attempt a = attempt(softmax(512, 4), f -> f);
        assertNull(a.rows());
        assertTrue(a.declined().startsWith("over the memory budget: about 18."), a.declined());
        assertTrue(a.declined().contains("of x's analytic values need more than a float (at least 1"), a.declined());
        assertTrue(a.declined().contains("from 64 of its 512 row groups), more than the 6.3% (32,768) it has room"
                + " for exactly; with exact analytic values, its pattern's entries and one thread's evaluations"
                + " would need"), a.declined());
        assertTrue(a.needs() > COMPACT_ONLY.bytes(), a.toString());
    }

    @Test
    void aBlockWhoseShareFitsIsAdmittedAndPassesWithTheExactRunsFigures() throws Exception {
        GradientResult compact = attempt(softmax(256, 1), f -> f).rows().get(0);
        GradientResult exact = TwoSidedCompressionTest.attempt(softmax(256, 1), (spec, inputs) -> CompactAgainstExactTest
                .BUILDER.build(spec, inputs), TwoSidedCompression.Gate.ALWAYS, MemoryBudget.UNLIMITED).rows().get(0);
        assertEquals(Verdict.PASS, compact.verdict());
        assertEquals(exact.maxScore(), compact.maxScore(), 0);
        assertArrayEquals(exact.worst().inputIndex(), compact.worst().inputIndex());
    }

    @Test
    void aWrongBackwardStillFailsWhetherTheSampleStopsTheRunOrNot() {
        for (double range : new double[] {4, 1}) {
            String yaml = softmax(range == 4 ? 512 : 256, range);
            CheckResult r = new GradientChecker((spec, inputs) -> Functions.withBackward(
                    CompactAgainstExactTest.BUILDER.build(spec, inputs), Functions.scaledBy(1 + 1e-3)), "cpu",
                    COMPACT_ONLY).check(Specs.parse(yaml));
            assertEquals(Status.FAILED, r.status(), r.toString());
        }
    }

    /** The two-sided path alone, its values held compactly, under a budget exact values do not fit. */
    private static TwoSidedCompression.Attempt attempt(String yaml, Corruption corruption) throws Exception {
        return TwoSidedCompressionTest.attempt(yaml, (spec, inputs) -> corruption.apply(CompactAgainstExactTest
                .BUILDER.build(spec, inputs)), TwoSidedCompression.Gate.ALWAYS.compactAbove(0), COMPACT_ONLY);
    }
}
