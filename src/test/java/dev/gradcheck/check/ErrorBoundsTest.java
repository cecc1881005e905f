package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.MemoryBudget;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The error bounds of docs/checking.md on the cases that set them (issue 24): long sums in the forward are no
 * false alarm, a bound never hides what a more precise step resolves, and fast mode resolves one entry at size
 * and a wrong scale at any size.
 */
class ErrorBoundsTest {

    /**
     * Enough for fast mode's vectors, too little for a dense recheck: with {@code compress: false} (a compressed
     * recheck fits and names the entry: TwoSidedCompressionTest) the fast row stands as judged.
     */
    private static final MemoryBudget NO_RECHECK = new MemoryBudget(1L << 30);

    private static CheckResult fastOnly(String yaml, UnaryOperator<INDArray> corrupt) {
        FunctionFactory f = (spec, inputs) -> corrupt == null ? RealOps.BUILDER.build(spec, inputs)
                : Functions.withBackward(RealOps.BUILDER.build(spec, inputs), corrupt);
        return new GradientChecker(f, "cpu", NO_RECHECK).check(Specs.parse(yaml));
    }

    private static GradientResult only(CheckResult r, CheckKind kind) {
        assertEquals(1, r.rowsOf(kind).size(), r.toString());
        return r.rowsOf(kind).get(0);
    }

    @Test
    @Tag("slow")
    void fastModeCatchesOneEntryOffByTenPercentAmong65536() {
        String tanh = """
                op: tanh
                mode: fast
                compress: false
                inputs:
                  x: {shape: [256, 256], init: {uniform: [-1, 1]}}
                """;
        GradientResult right = only(fastOnly(tanh, null), CheckKind.FAST);
        assertEquals(Verdict.PASS, right.verdict(), right.toString());
        assertTrue(right.maxScore() < 0.5, "a correct backward with margin: " + right);
        assertTrue(right.note().contains("one wrong entry alone"), right.note());
        for (int at : new int[] {0, 4321, 30000, 65535}) {
            UnaryOperator<INDArray> oneEntry = g -> g.dup().putScalar(at, g.getDouble(at) * 1.1);
            GradientResult wrong = only(fastOnly(tanh, oneEntry), CheckKind.FAST);
            assertEquals(Verdict.MISMATCH, wrong.verdict(), "x[" + at + "] x1.1: " + wrong);
        }
    }

    @Test
    @Tag("slow")
    void fastModeCatchesAWrongScaleWhereTheProjectionIsFarBelowOneThousandth() {
        // mean_sqerr_loss's backward ignores its incoming gradient, so after × 0.5 it is 2× too large everywhere
        // (docs/nd4j-findings.md);
        // φ′ is about 1e-6 here, where Paddle's absolute floor allowed 1e-6
        String halfLoss = """
                graph:
                  - {op: mean_sqerr_loss, in: [predictions, weights, labels], out: loss, attrs: {lossReduce: 2}}
                  - {op: multiply, in: [loss, half], out: scaled}
                  - {op: add, in: [scaled, zeros], out: spread}
                mode: fast
                inputs:
                  predictions: {shape: [1000, 1000]}
                  weights: {shape: [], init: {constant: 1}}
                  labels: {shape: [1000, 1000]}
                  half: {shape: [], init: {constant: 0.5}}
                  zeros: {shape: [1000, 1000], init: {constant: 0}}
                check: [predictions]
                output: spread
                """;
        // spread over 10⁶ outputs, full mode's block has 10¹² entries: no recheck in full replaces the fast row
        GradientResult row = only(fastOnly(halfLoss, null), CheckKind.FAST);
        assertTrue(Math.abs(row.worst().numerical()) < 1e-3, "a projection below Paddle's floor: " + row);
        assertEquals(Verdict.MISMATCH, row.verdict(), row.toString());
    }

    @Test
    void aBoundThatHidesADifferenceIsTriedAtAMorePreciseStep() {
        // ND4J's LossOpValidation case: its backward takes labelsSmoothing 0.3 as float32 (0.30000001192...), so
        // each weighted entry is off by 0.5 × 1.19e-8; at logits[2, 0] (gradient 1.3e-3) that is 4.8e-6 relative,
        // below the rounding bound at h = 1e-6 (1.9e-8, the summed loss is 45) and resolved at 100·h. PyTorch's
        // Jacobian at these inputs agrees with the numerical side (0.0013210454), and with ND4J's value
        // (0.0013210514) only when given 0.3f
        CheckResult r = RealOps.check("""
                op: sigm_cross_entropy_loss
                attrs: {lossReduce: 1, labelsSmoothing: 0.3}
                inputs:
                  logits:
                    shape: [10, 4]
                    init:
                      values: [[0.0947, 1.25, -0.9314, 0.9924], [-0.2592, -0.2615, 1.8997, 0.1575],
                               [1.745, 0.7295, 1.1269, -0.0308], [0.588, -0.9737, -0.3668, -0.4381],
                               [-1.3323, -1.5085, -1.6269, -0.2387], [-0.1724, -0.3203, 0.0691, -1.3356],
                               [-0.0795, 0.2381, 0.751, -0.8462], [-0.3999, -2.0152, -0.5036, -2.1967],
                               [-1.4194, 1.1015, -2.2016, 0.7986], [0.3279, -0.3123, 0.4593, 0.5275]]
                  weights:
                    shape: [10, 4]
                    init:
                      values: [[0, 0, 0, 0], [0, 0, 1, 1], [1, 1, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1],
                               [2, 2, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2]]
                  labels:
                    shape: [10, 4]
                    init:
                      values: [[1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 1, 1], [0, 0, 1, 0], [1, 1, 0, 1],
                               [0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 1], [1, 0, 0, 0], [0, 1, 0, 1]]
                check: [logits]
                """);
        GradientResult jacobian = only(r, CheckKind.JACOBIAN);
        assertEquals(Verdict.MISMATCH, jacobian.verdict(), jacobian.toString());
        assertArrayEquals(new long[] {2, 0}, jacobian.worst().inputIndex());
    }

    @Test
    void aLongInnerSumIsNoFalseAlarmAndAWrongBackwardStillFails() {
        // out[i, j] sums 2048 products: its rounding is several times ε·|out| where |out| ends small
        String matmul = """
                op: matmul
                seed: 4
                max_elements: 96
                inputs:
                  a: {shape: [8, 2048]}
                  b: {shape: [2048, 8]}
                """;
        CheckResult right = RealOps.check(matmul);
        assertEquals(Status.PASSED, right.status(), right.toString());
        for (GradientResult g : right.rowsOf(CheckKind.JACOBIAN)) {
            assertTrue(g.maxScore() < 0.5, "with margin: " + g);
        }
        assertEquals(Status.FAILED, RealOps.checkCorrupted(matmul, Functions.scaledBy(1 + 1e-5)).status());
    }
}
