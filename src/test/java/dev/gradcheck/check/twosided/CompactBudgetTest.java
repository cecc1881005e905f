package dev.gradcheck.check.twosided;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.Functions;
import dev.gradcheck.check.GradientChecker;
import dev.gradcheck.check.Specs;
import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.colouring.CompressedJacobiansTest.Corruption;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.MemoryBudget;
import org.junit.jupiter.api.Test;

/**
 * The budget counts what a compact run holds ({@link RunMemory}): softmax over [2, 1024] (2,097,152 entries in its
 * pattern: 16.8 MB as doubles, 8.4 MB as floats; its dense blocks 134 MB) under 14 MiB, where only compact values fit,
 * is checked, with the figures of the run that holds exact values (under 96 MiB); where that run cannot settle an
 * entry on a float, it is refused with the entry and the budget exact values would need (and fails where fast mode's
 * narrowing names a failing entry), never passed; an entry held exactly fails as it does with exact values.
 */
class CompactBudgetTest {

    private static final Nd4jOpBuilder BUILDER = CompactAgainstExactTest.BUILDER;
    /** Its off-diagonal entries (~1e-6) held as floats can fail under an absolute tolerance of 1e-10. */
    private static final String SOFTMAX = CompactAgainstExactTest.SOFTMAX;
    private static final MemoryBudget COMPACT_ONLY = new MemoryBudget(14L << 20);
    private static final MemoryBudget EXACT_FITS = new MemoryBudget(96L << 20);

    private static CheckResult check(Corruption corruption, MemoryBudget budget) {
        return new GradientChecker((spec, inputs) -> corruption.apply(BUILDER.build(spec, inputs)), "cpu", budget)
                .check(Specs.parse(SOFTMAX));
    }

    @Test
    void aRightBackwardWhoseCompactValuesAloneFitPassesWithTheExactRunsFigures() {
        CheckResult compact = check(f -> f, COMPACT_ONLY);
        CheckResult exact = check(f -> f, EXACT_FITS);
        assertEquals(Status.PASSED, exact.status(), exact.toString());
        assertEquals(Status.PASSED, compact.status(), compact.toString());
        GradientResult c = CompressedJacobiansTest.jacobianRows(compact).get(0);
        GradientResult e = CompressedJacobiansTest.jacobianRows(exact).get(0);
        assertEquals(e.maxScore(), c.maxScore(), 0);
        assertEquals(e.maxAbsError(), c.maxAbsError(), 0);
        assertArrayEquals(e.worst().outputIndex(), c.worst().outputIndex());
        assertArrayEquals(e.worst().inputIndex(), c.worst().inputIndex());
        assertEquals(e.worst().analytic(), c.worst().analytic(), 0);
    }

    @Test
    void anEntryHeldAsAFloatThatFailsIsRefusedWithTheBudgetExactValuesNeedWhereTheyDoNotFit() {
        // the same entry fails where exact values fit: CompactAgainstExactTest
        Corruption offDiagonal = CompressedJacobiansTest.oneElementOff("x", "0", 5, 700, 0.01);
        CheckResult r = check(offDiagonal, COMPACT_ONLY);
        assertEquals(Status.INVALID, r.status(), r.toString());
        assertTrue(r.message().contains("d0[5]/dx[700]: a rounded analytic value"), r.message());
        assertTrue(r.message().contains("with exact analytic values, its pattern's entries and one thread's"
                + " evaluations would need"), r.message());
        assertTrue(r.message().contains("--max-memory 16."), r.message());
    }

    @Test
    void aBackwardWrongEverywhereFailsWhereTheCompactRunIsRefused() {
        CheckResult r = check(f -> Functions.withBackward(f, Functions.scaledBy(1 + 1e-3)), COMPACT_ONLY);
        // refused in full (the first rounded entry it meets fails), it fails on fast mode's narrowed entries
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult row = r.gradients().get(0); // fast mode's row, which says why full mode could not judge it
        assertEquals(Verdict.MISMATCH, row.verdict());
        assertTrue(row.note().contains("with exact analytic values"), row.note());
    }

    @Test
    void aWrongEntryHeldExactlyFailsUnderTheCompactBudgetAsWithExactValues() throws Exception {
        Corruption diagonal = CompressedJacobiansTest.oneElementOff("x", "0", 1500, 1500, 1e-5);
        GradientResult exact = attempt(diagonal, EXACT_FITS).rows().get(0);
        GradientResult compact = attempt(diagonal, COMPACT_ONLY).rows().get(0);
        assertEquals(Verdict.MISMATCH, compact.verdict());
        assertEquals(exact.mismatches().count(), compact.mismatches().count());
        assertArrayEquals(exact.worst().outputIndex(), compact.worst().outputIndex());
        assertArrayEquals(exact.worst().inputIndex(), compact.worst().inputIndex());
        assertEquals(exact.worst().analytic(), compact.worst().analytic(), 0);
        assertEquals(exact.worst().numerical(), compact.worst().numerical(), 0);
    }

    /** The two-sided path alone under this budget (without locating: a failing entry is recomputed alone). */
    private static TwoSidedCompression.Attempt attempt(Corruption corruption, MemoryBudget budget) throws Exception {
        return TwoSidedCompressionTest.attempt(SOFTMAX, (spec, inputs) -> corruption.apply(BUILDER.build(spec,
                inputs)), TwoSidedCompression.Gate.ALWAYS, budget);
    }
}
