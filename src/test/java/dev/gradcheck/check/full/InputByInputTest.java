package dev.gradcheck.check.full;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.GradientChecker;
import dev.gradcheck.check.Specs;
import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.colouring.CompressedJacobiansTest.Corruption;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Both sides compressed one input at a time ({@link InputByInput}), where the inputs' pattern entries together are
 * over the budget and each input's alone are not: a 64² matmul under 3.5 MiB (dense blocks 512 MiB; the pattern's
 * entries, 8 bytes each, and one thread's batch 4.75 MiB together, 2.5 MiB per input). A right backward passes, a wrong one fails with
 * dense mode's worst entry and count, and validate accepts what check runs.
 */
class InputByInputTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());
    private static final MemoryBudget BUDGET = new MemoryBudget(7L << 19); // 3.5 MiB
    private static final String MATMUL = """
            op: matmul
            inputs:
              a: {shape: [64, 64], init: {uniform: [-2, 2]}}
              b: {shape: [64, 64], init: {uniform: [-2, 2]}}
            """;

    private static GradientChecker checker(Corruption corruption, MemoryBudget budget) {
        return new GradientChecker((spec, inputs) -> corruption.apply(BUILDER.build(spec, inputs)), "cpu", budget);
    }

    private static List<GradientResult> jacobians(CheckResult r) {
        return CompressedJacobiansTest.jacobianRows(r);
    }

    @Test
    void aRightBackwardPassesOneInputAtATimeAndValidateAgrees() throws InvalidSpecException {
        CheckResult r = checker(f -> f, BUDGET).check(Specs.parse(MATMUL));
        assertEquals(Status.PASSED, r.status(), r.message());
        assertEquals(List.of("a", "b"), jacobians(r).stream().map(GradientResult::input).toList());
        checker(f -> f, BUDGET).validate(Specs.parse(MATMUL)); // throws where it would refuse
        CheckResult under = checker(f -> f, new MemoryBudget(2L << 20)).check(Specs.parse(MATMUL));
        assertEquals(Status.INVALID, under.status(), "one input's entries alone are over 2 MiB");
        assertTrue(under.message().contains("would let both sides compressed run"), under.message());
    }

    @Test
    void aWrongEntryInOneInputFailsWithDenseModesWorstEntryAndCount() {
        // y[4, 44] (flat 300) reads b[15, 44] (flat 1004)
        Corruption wrong = CompressedJacobiansTest.oneElementOff("b", "0", 300, 1004, 0.1);
        assertLikeDense(wrong);
    }

    @Test
    void aValueOutsideThePatternOfOneInputIsLocatedAndCountedAsInDenseMode() {
        Corruption outside = CompressedJacobiansTest.addOutside("a", "0", 5, 3000, 1e-4);
        assertLikeDense(outside);
    }

    private static void assertLikeDense(Corruption wrong) {
        CheckResult split = checker(wrong, BUDGET).check(Specs.parse(MATMUL));
        CheckResult dense = checker(wrong, MemoryBudget.UNLIMITED).check(Specs.parse(MATMUL + "compress: false\n"));
        assertEquals(Status.FAILED, dense.status());
        assertEquals(Status.FAILED, split.status(), split.message());
        for (int k = 0; k < 2; k++) {
            GradientResult d = jacobians(dense).get(k);
            GradientResult c = jacobians(split).get(k);
            assertEquals(d.verdict(), c.verdict(), c.input() + ": " + c.note());
            if (d.verdict() != Verdict.PASS) {
                assertEquals(d.mismatches().count(), c.mismatches().count(), c.note());
                assertArrayEquals(d.worst().outputIndex(), c.worst().outputIndex());
                assertArrayEquals(d.worst().inputIndex(), c.worst().inputIndex());
                assertEquals(d.maxScore(), c.maxScore(), 0);
            }
        }
    }
}
