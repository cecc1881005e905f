package dev.gradcheck.check;

import static dev.gradcheck.check.RealOps.check;
import static dev.gradcheck.check.RealOps.checkCorrupted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Sampling;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.InputValues;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/** The checking modes on real ND4J ops: kinks, stencils, second order, low precision and sampling. */
class RealOpModesTest {

    // ---- kinks ----

    private static final String RELU_AT_ZERO = """
            op: relu
            inputs:
              x: {shape: [2, 3], init: {values: [[-1.5, 0.0, 0.7], [0.0, 2.0, -0.3]]}}
            """;

    @Test
    void reluAtExactlyZeroIsNondifferentiableNotAFailure() {
        CheckResult r = check(RELU_AT_ZERO);
        assertEquals(Status.PASSED, r.status(), r.toString());
        GradientResult block = r.rowsOf(CheckKind.JACOBIAN).get(0);
        assertEquals(Verdict.NONDIFFERENTIABLE, block.verdict());
        assertTrue(block.note().startsWith("2 of 6 elements of x sit at a nondifferentiable point (e.g. x[0, 1])"),
                block.note());
    }

    @Test
    void aWrongGradientAwayFromTheKinkStillFails() {
        CheckResult r = checkCorrupted(RELU_AT_ZERO, Functions.scaledBy(1.5));
        assertEquals(Status.FAILED, r.status());
        GradientResult block = r.rowsOf(CheckKind.JACOBIAN).get(0);
        assertEquals(Verdict.MISMATCH, block.verdict());
        assertTrue(block.note().contains("left out"), "the kinks are set aside, the rest is judged: " + block.note());
    }

    @Test
    void aValueOutsideTheOneSidedSlopesAtAKinkIsStillWrong() {
        // relu at 0 may answer 0, 1 or anything between; -100 is no subgradient
        UnaryOperator<INDArray> wrongAtZero = g -> g.dup().putScalar(1, g.getDouble(1) - 100);
        CheckResult r = checkCorrupted(RELU_AT_ZERO, wrongAtZero);
        GradientResult block = r.rowsOf(CheckKind.JACOBIAN).get(0);
        assertEquals(Verdict.MISMATCH, block.verdict(), r.toString());
        assertTrue(block.note().contains("not a subgradient"), block.note());
    }

    @Test
    void aCoarseStepOnASmoothFunctionIsNotMistakenForAKink() {
        // tan near its pole with δ = 1e-2: central differences err by 4%, but the point is smooth, so that error
        // must surface (as a mismatch the stencils fix), never as "nondifferentiable" hiding a wrong backward
        String coarse = """
                op: tan
                delta: 1.0e-2
                inputs:
                  x: {shape: [2], init: {values: [1.5, 1.52]}}
                """;
        CheckResult wrong = checkCorrupted(coarse, Functions.scaledBy(1.1));
        assertEquals(Status.FAILED, wrong.status(), wrong.toString());
        assertFalse(wrong.rowsOf(CheckKind.JACOBIAN).isEmpty(), wrong.toString());
        assertTrue(wrong.rowsOf(CheckKind.JACOBIAN).stream().noneMatch(g -> g.verdict() == Verdict.NONDIFFERENTIABLE));
        assertEquals(Status.PASSED, check(coarse + "stencil: richardson\n").status());
    }

    @Test
    void maxWithTiesIsAKinkAndAbsAtZeroAgreesAnyway() {
        // ND4J gives abs a slope of sign(0) = 0 at 0, which is what central differences see too: no disagreement
        CheckResult abs = check("""
                op: abs
                inputs:
                  x: {shape: [4], init: {values: [0.0, -1.0, 2.0, 0.0]}}
                """);
        assertEquals(Verdict.PASS, abs.rowsOf(CheckKind.JACOBIAN).get(0).verdict(), abs.toString());
        CheckResult max = check("""
                op: reduce_max
                attrs: {dimensions: [1]}
                inputs:
                  x: {shape: [2, 3], init: {values: [[1.0, 3.0, 3.0], [0.5, -1.0, 2.0]]}}
                """);
        assertEquals(Status.PASSED, max.status(), max.toString());
        assertEquals(Verdict.NONDIFFERENTIABLE, max.rowsOf(CheckKind.JACOBIAN).get(0).verdict(), max.toString());
    }

    @Test
    void resampleDrawsNewInputsUntilThePointIsSmooth() {
        // a uniform range placed so that the first value seed 7 draws is leakyrelu's kink at 0 (to rounding, well
        // within δ); the range straddles 0, so other seeds draw both sides of it and miss the kink itself
        double r0 = InputValues.generate(Specs.parse("""
                op: relu
                inputs: {x: {shape: [8], init: {uniform: [0, 1]}}}
                """).input("x"), 7)[0];
        String spec = """
                op: leakyrelu
                attrs: {alpha: 0.2}
                inputs: {x: {shape: [8], init: {uniform: [%s, %s]}}}
                """.formatted(Double.toString(-2 * r0), Double.toString(2 - 2 * r0));
        CheckResult kinked = check(spec);
        assertEquals(Verdict.NONDIFFERENTIABLE, kinked.rowsOf(CheckKind.JACOBIAN).get(0).verdict(), kinked.toString());
        CheckResult resampled = check(spec + "resample: true\n");
        GradientResult block = resampled.rowsOf(CheckKind.JACOBIAN).get(0);
        assertEquals(Verdict.PASS, block.verdict(), resampled.toString());
        assertTrue(block.note().contains("inputs redrawn with seed 8"), block.note());
        CheckResult wrong = checkCorrupted(spec + "resample: true\n", Functions.scaledBy(1.5));
        assertEquals(Status.FAILED, wrong.status(), "a smooth point found, a wrong backward is still wrong: " + wrong);
    }

    // ---- stencils ----

    private static final String TAN_NEAR_POLE = """
            op: tan
            inputs:
              x: {shape: [3], init: {values: [1.5, 1.52, -1.5]}}
            delta: 1.0e-3
            """;

    @Test
    void aCoarseStepsTruncationIsResolvedAtATenthOfItAndHigherStencilsShrinkIt() {
        // central differences with δ = 1e-3 err by ~2e-4 near tan's pole: the probe of the disagreeing columns
        // measures that error from a half step, finds it truncation (far above rounding) and takes those entries at
        // δ/10 too (MostPreciseStep), where it is 100 times smaller: the correct backward is no false failure and
        // is judged at the finer value, and one 0.1% off (five times the error at δ) still fails
        CheckResult central = check(TAN_NEAR_POLE);
        assertEquals(Status.PASSED, central.status(), central.toString());
        GradientResult block = central.rowsOf(CheckKind.JACOBIAN).get(0);
        assertTrue(block.maxRelError() < 2e-5, "resolved at a tenth of the step: " + block.maxRelError());
        assertEquals(Status.FAILED, checkCorrupted(TAN_NEAR_POLE, Functions.scaledBy(1.001)).status());
        for (String stencil : new String[] {"five-point", "richardson"}) {
            CheckResult r = check(TAN_NEAR_POLE + "stencil: " + stencil + "\n");
            assertEquals(Status.PASSED, r.status(), stencil + ": " + r);
            assertTrue(r.worstGradient().maxRelError() < 1e-4 / 100, stencil + " shrinks the error at δ a hundredfold");
            CheckResult wrong = checkCorrupted(TAN_NEAR_POLE + "stencil: " + stencil + "\n", Functions.scaledBy(1.001));
            assertEquals(Status.FAILED, wrong.status(), stencil + " still sees a backward 0.1% off");
        }
    }

    // ---- order 2 ----

    @Test
    void secondOrderPassesForAnOpWhoseBackwardIsDifferentiable() {
        CheckResult r = check("""
                op: exp
                order: 2
                inputs:
                  x: {shape: [2, 3], init: {uniform: [-1, 1]}}
                """);
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals(2, r.gradients().stream().filter(g -> g.order() == 2).count(), "d grad_x/dx and d grad_x/dv_0");
    }

    @Test
    void secondOrderSaysWhenSameDiffCannotDifferentiateTheBackward() {
        CheckResult r = check("""
                op: tanh
                order: 2
                inputs:
                  x: {shape: [4], init: {uniform: [-1, 1]}}
                """);
        assertEquals(Status.ERROR, r.status(), r.toString());
        assertTrue(r.message().contains("tanh"), r.message());
        assertTrue(r.rowsOf(CheckKind.JACOBIAN).get(0).verdict().passed(), "first order still reported");
    }

    @Test
    void aGraphOfDifferentiableOpsIsCheckedAtOrderTwoAndAClippedOneSaysWhyNot() {
        String chain = """
                graph:
                  - {op: sin, in: [x], out: s}
                  - {op: exp, in: [s], out: y}
                order: 2
                inputs:
                  x: {shape: [2, 3], init: {uniform: [-1, 1]}}
                """;
        CheckResult r = check(chain);
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals(2, r.gradients().stream().filter(g -> g.order() == 2).count(), "d grad_x/dx and d grad_x/dv_y");
        FunctionFactory wrongSecondOrder = (spec, inputs) -> Functions.secondOrderScaled(RealOps.BUILDER.build(spec, inputs),
                1.5);
        CheckResult wrong = new GradientChecker(wrongSecondOrder, "cpu").check(Specs.parse(chain));
        assertEquals(Status.FAILED, wrong.status(), "a wrong double backward of the graph fails at order 2");
        CheckResult clipped = check(chain.replace("out: s}", "out: s, error_clip: {max: 0.5}}"));
        assertEquals(Status.ERROR, clipped.status());
        assertTrue(clipped.message().contains("error_clip has no second-order backward"), clipped.message());
    }

    @Test
    void hessianVectorProductOfAScalarLoss() {
        CheckResult r = check("""
                op: reduce_sum
                order: 2
                inputs:
                  x: {shape: [3], init: {uniform: [-1, 1]}}
                """);
        // sum's backward is a broadcast: SameDiff can or cannot differentiate it; either way it must say which
        assertTrue(r.status() == Status.PASSED || r.status() == Status.ERROR, r.toString());
    }

    @Test
    void fastModeDilutesAnErrorInOneEntryWhichFullModeCatches() {
        // the documented trade-off: one entry 2e-6 off (2x the tolerance) in a 1024x1024 diagonal Jacobian
        String spec = """
                op: tanh
                inputs:
                  x: {shape: [32, 32], init: {uniform: [-2, 2]}}
                """;
        UnaryOperator<INDArray> oneEntry = g -> g.dup().putScalar(100, g.getDouble(100) * (1 + 2e-6));
        CheckResult fast = checkCorrupted(spec + "mode: fast\n", oneEntry);
        assertEquals(Status.PASSED, fast.status(), fast.toString());
        assertEquals(Status.FAILED, checkCorrupted(spec, oneEntry).status());
        assertEquals(Status.FAILED, checkCorrupted(spec + "mode: fast\n", Functions.scaledBy(1 + 2e-5)).status(),
                "the same error on every entry is caught in fast mode too");
    }

    // ---- low precision ----

    @Test
    void lowPrecisionOpsPassAgainstTheFloat64ReferenceAndWrongOnesFail() {
        for (String dtype : new String[] {"float32", "float16", "bfloat16"}) {
            String spec = """
                    op: softplus
                    inputs:
                      x: {shape: [3, 4], dtype: %s, init: {uniform: [-2, 2]}}
                    """.formatted(dtype);
            CheckResult r = check(spec);
            assertEquals(Status.PASSED, r.status(), dtype + ": " + r);
            assertEquals(1e-6, r.delta(), "the reference is float64, so the float64 step serves every dtype");
            CheckResult wrong = checkCorrupted(spec, Functions.scaledBy(1.25));
            assertEquals(Status.FAILED, wrong.status(), dtype + " with a backward 25% off");
        }
        CheckResult subtle = checkCorrupted("""
                op: softplus
                inputs:
                  x: {shape: [3, 4], dtype: float32, init: {uniform: [-2, 2]}}
                """, Functions.scaledBy(1.005));
        assertEquals(Status.FAILED, subtle.status(), "float32 is judged at 1e-3: half a percent off fails");
    }

    // ---- sampling ----

    @Test
    void maxElementsSamplesALargeInputAndStillCatchesAWrongBackward() {
        String spec = """
                op: sigmoid
                max_elements: 16
                inputs:
                  x: {shape: [20, 20], init: {uniform: [-3, 3]}}
                """;
        CheckResult r = check(spec);
        assertEquals(Status.PASSED, r.status(), r.toString());
        GradientResult block = r.rowsOf(CheckKind.JACOBIAN).get(0);
        Sampling sampled = block.sampling();
        assertEquals(List.of(16, 400L, 16, 400L), List.of(sampled.inputChecked(), sampled.inputTotal(),
                sampled.outputChecked(), sampled.outputTotal()));
        assertEquals(16, sampled.inputPositions().size(), "the positions compared are listed");
        assertEquals(16, sampled.outputPositions().size());
        for (long[] at : sampled.inputPositions()) {
            assertTrue(at.length == 2 && at[0] >= 0 && at[0] < 20 && at[1] >= 0 && at[1] < 20, Arrays.toString(at));
        }
        assertEquals(2 * 16 + 16, block.evaluations(), "32 forwards and 16 backward passes instead of 800 and 400");
        CheckResult wrong = checkCorrupted(spec, Functions.scaledBy(1.01));
        assertEquals(Status.FAILED, wrong.status());
    }
}
