package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.MemoryBudget;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * Wrong backwards at layer sizes that full mode refused instead of failing (issue 33): a softmax leaking across
 * rows, a matmul off by one in its inner index, a convolution whose weight gradient is zero, a backward off by a
 * small constant in every entry (J + 1e-4 everywhere, on tanh, softmax and the convolution). Each FAILS at its
 * layer size, under a budget its dense blocks do not fit, and fails in dense mode at a size where those fit; the
 * right backward passes beside it.
 */
class WrongAtLayerSizesTest {

    private static final MemoryBudget BUDGET = new MemoryBudget(1L << 30);

    static String softmax(int rows, int cols) {
        return """
                op: softmax
                mode: full
                attrs: {dimension: 1}
                inputs:
                  x: {shape: [%d, %d], init: {uniform: [-2, 2]}}
                """.formatted(rows, cols);
    }

    static String matmul(int n) {
        return """
                op: matmul
                mode: full
                inputs:
                  a: {shape: [%d, %d], init: {uniform: [0.5, 1.5]}}
                  b: {shape: [%d, %d], init: {uniform: [0.5, 1.5]}}
                """.formatted(n, n, n, n);
    }

    static String conv(int channels, int size) {
        return """
                op: conv2d
                mode: full
                attrs: {kH: 3, kW: 3, sH: 1, sW: 1, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 0, isNCHW: 0}
                inputs:
                  x: {shape: [1, %d, %d, %d], init: {uniform: [-1, 1]}}
                  w: {shape: [3, 3, %d, %d], init: {uniform: [-1, 1]}}
                """.formatted(channels, size, size, channels, channels);
    }

    /** Every row of dx takes 1e-3 of the next row's gradient: the softmax's rows leak into each other. */
    static Differentiable leakingRows(Differentiable f) {
        return onGradient(f, "x", (g, in, ct) -> {
            INDArray leaked = g.dup();
            long rows = g.size(0);
            leaked.get(NDArrayIndex.interval(0, rows - 1), NDArrayIndex.all())
                    .addi(g.get(NDArrayIndex.interval(1, rows), NDArrayIndex.all()).mul(1e-3));
            return leaked;
        });
    }

    /** da = g·bᵀ with the inner index off by one: da[i, k] = Σ_j g[i, j]·b[k + 1, j] (b's last row for the last k). */
    static Differentiable innerIndexOffByOne(Differentiable f) {
        return onGradient(f, "a", (g, in, ct) -> {
            INDArray b = in.get("b");
            long n = b.size(0);
            INDArray shifted = Nd4j.concat(0, b.get(NDArrayIndex.interval(1, n), NDArrayIndex.all()),
                    b.get(NDArrayIndex.interval(n - 1, n), NDArrayIndex.all()));
            return ct.values().iterator().next().mmul(shifted.transpose()).castTo(g.dataType());
        });
    }

    static Differentiable zeroWeightGradient(Differentiable f) {
        return onGradient(f, "w", (g, in, ct) -> g.like().assign(0));
    }

    @Tag("slow") // softmax over [64, 1000]: 64,000 elements, dense blocks 61 GiB
    @Test
    void aSoftmaxLeakingAcrossRowsFailsAtLayerSize() {
        assertFails(check(softmax(64, 1000), WrongAtLayerSizesTest::leakingRows), "x");
        assertFails(check(softmax(6, 20) + "compress: false\n", WrongAtLayerSizesTest::leakingRows), "x");
    }

    @Tag("slow") // matmul 256²: dense blocks 2 GiB per input
    @Test
    void aMatmulOffByOneInItsInnerIndexFailsAtLayerSize() {
        assertFails(check(matmul(256), WrongAtLayerSizesTest::innerIndexOffByOne), "a");
        assertFails(check(matmul(12) + "compress: false\n", WrongAtLayerSizesTest::innerIndexOffByOne), "a");
    }

    @Test
    void aConvolutionWhoseWeightGradientIsZeroFailsAtLayerSize() {
        GradientResult big = assertFails(check(conv(16, 32), WrongAtLayerSizesTest::zeroWeightGradient), "w");
        assertEquals(Verdict.ZERO_GRADIENT, big.verdict(), big.note());
        assertTrue(big.note().contains("full mode could not judge it under --max-memory"), big.note());
        // fast mode's failing row is narrowed to entries it names: a weight's entry whose backward gives 0
        assertTrue(big.mismatches().count() >= 1, big.note());
        assertEquals(0, big.worst().analytic(), big.note());
        assertTrue(Math.abs(big.worst().numerical()) > 1e-3, big.note());
        assertEquals(4, big.worst().inputIndex().length, "w[kH, kW, iC, oC]: " + big.note());
        GradientResult small = assertFails(check(conv(3, 7) + "compress: false\n",
                WrongAtLayerSizesTest::zeroWeightGradient), "w");
        assertEquals(Verdict.ZERO_GRADIENT, small.verdict());
    }

    /** J + 1e-4 everywhere: each entry of the gradient of x off by 1e-4 times the cotangent's sum. */
    static Differentiable offByAConstantEverywhere(Differentiable f) {
        return onGradient(f, "x", (g, in, ct) -> g.add(ct.values().iterator().next().sumNumber().doubleValue() * 1e-4));
    }

    static String tanh(int n) {
        return """
                op: tanh
                mode: full
                inputs:
                  x: {shape: [%d, %d], init: {uniform: [-2, 2]}}
                """.formatted(n, n);
    }

    @Tag("slow") // tanh [256, 256] (dense blocks 64 GiB), softmax [64, 1000] and a convolution x [1, 16, 32, 32]
    @Test
    void aBackwardOffByASmallConstantInEveryEntryFailsAtLayerSizes() {
        for (String yaml : List.of(tanh(256), softmax(64, 1000), conv(16, 32))) {
            assertFails(check(yaml, WrongAtLayerSizesTest::offByAConstantEverywhere), "x");
        }
        assertFails(check(tanh(12) + "compress: false\n", WrongAtLayerSizesTest::offByAConstantEverywhere), "x");
    }

    @Tag("slow")
    @Test
    void theRightBackwardsPassAtLayerSizes() {
        for (String yaml : List.of(softmax(64, 1000), matmul(256), conv(16, 32))) {
            CheckResult r = check(yaml, f -> f);
            assertEquals(Status.PASSED, r.status(), yaml + r.message());
        }
    }

    private static GradientResult assertFails(CheckResult r, String input) {
        assertEquals(Status.FAILED, r.status(), r.message());
        GradientResult row = r.gradients().stream().filter(g -> input.equals(g.input())
                && (g.kind() == CheckKind.JACOBIAN || g.kind() == CheckKind.FAST)).findFirst().orElseThrow();
        assertTrue(!row.verdict().passed(), row.verdict() + ": " + row.note());
        return row;
    }

    private static CheckResult check(String yaml, UnaryOperator<Differentiable> wrong) {
        return new GradientChecker((spec, inputs) -> wrong.apply(RealOps.BUILDER.build(spec, inputs)), "cpu", BUDGET)
                .check(Specs.parse(yaml));
    }

    @FunctionalInterface
    private interface GradientChange {
        INDArray apply(INDArray gradient, Map<String, INDArray> inputs, Map<String, INDArray> cotangents);
    }

    private static Differentiable onGradient(Differentiable f, String input, GradientChange change) {
        return new Functions.Delegate(f) {
            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                Map<String, INDArray> g = new HashMap<>(f.vjp(in, ct, wrt));
                if (g.containsKey(input)) {
                    g.put(input, change.apply(g.get(input), in, ct));
                }
                return g;
            }
        };
    }
}
