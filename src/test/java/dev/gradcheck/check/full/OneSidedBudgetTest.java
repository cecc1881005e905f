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
import dev.gradcheck.spec.MemoryBudget;
import org.junit.jupiter.api.Test;

/**
 * One side compressed holds 88 bytes per entry of its blocks (HeldBytes.ONE_SIDED), dense blocks 32: a tanh over 64
 * elements (4,096 entries) takes the one-sided path where 360 KB fit, and the dense path under 200 KB, where only
 * dense blocks (131 KB) do, with dense mode's evaluations and, for a right and a wrong backward, its verdict, worst
 * entry and count.
 */
class OneSidedBudgetTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());
    private static final MemoryBudget DENSE_ONLY = new MemoryBudget(200_000);
    private static final String TANH = """
            op: tanh
            mode: full
            inputs:
              x: {shape: [1, 64], init: {uniform: [-2, 2]}}
            """;

    private static GradientResult row(Corruption corruption, MemoryBudget budget, String extra) {
        GradientChecker checker = new GradientChecker((spec, inputs) -> corruption.apply(BUILDER.build(spec, inputs)),
                "cpu", budget);
        CheckResult r = checker.check(Specs.parse(TANH + extra));
        assertTrue(r.status() == Status.PASSED || r.status() == Status.FAILED, r.status() + ": " + r.message());
        return CompressedJacobiansTest.jacobianRows(r).get(0);
    }

    @Test
    void underABudgetOnlyDenseBlocksFitTheDensePathTakesTheTarget() {
        GradientResult dense = row(f -> f, MemoryBudget.UNLIMITED, "compress: false\n");
        GradientResult tight = row(f -> f, DENSE_ONLY, "");
        GradientResult roomy = row(f -> f, MemoryBudget.UNLIMITED, "");
        assertEquals(dense.verdict(), tight.verdict());
        assertEquals(dense.evaluations(), tight.evaluations(), "the dense path's evaluations");
        assertTrue(roomy.evaluations() < dense.evaluations(), "where it fits, one side compressed costs less: "
                + roomy.evaluations() + " against " + dense.evaluations());
    }

    @Test
    void aWrongEntryFailsAsInDenseModeOnEitherPath() {
        Corruption wrong = CompressedJacobiansTest.oneElementOff("x", "0", 17, 17, 0.01);
        GradientResult dense = row(wrong, MemoryBudget.UNLIMITED, "compress: false\n");
        assertEquals(dense.verdict().passed(), false);
        for (MemoryBudget budget : new MemoryBudget[] {DENSE_ONLY, MemoryBudget.UNLIMITED}) {
            GradientResult c = row(wrong, budget, "");
            assertEquals(dense.verdict(), c.verdict(), budget + ": " + c.note());
            assertEquals(dense.mismatches().count(), c.mismatches().count());
            assertArrayEquals(dense.worst().outputIndex(), c.worst().outputIndex());
            assertArrayEquals(dense.worst().inputIndex(), c.worst().inputIndex());
            assertEquals(dense.maxScore(), c.maxScore(), 0);
        }
    }
}
