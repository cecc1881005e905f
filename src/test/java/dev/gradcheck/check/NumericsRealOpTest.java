package dev.gradcheck.check;

import static dev.gradcheck.check.RealOps.check;
import static dev.gradcheck.check.RealOps.checkCorrupted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The numerics of a verdict on real ND4J ops: the relative step and the noise-aware comparison (false alarms from
 * ND4J's own validation suites pass, real bugs still fail), float32 judged against its measured noise (a backward
 * 0.1% off fails in every seed, correct ops never do), and kinks in fast mode without a full recheck.
 */
class NumericsRealOpTest {

    // ---- false alarms: the step and the finite differences' own error ----

    /** Specs that FAILed at the default tolerance with an absolute step and a comparison blind to its own noise. */
    private static final List<String> FALSE_ALARMS = List.of("""
            op: std
            attrs: {biasCorrected: true}
            inputs: {x: {shape: [10, 4], init: {normal: [0, 100]}}}
            """, """
            op: var
            attrs: {biasCorrected: true}
            inputs: {x: {shape: [10, 4], init: {normal: [0, 100]}}}
            """, """
            op: reduce_norm2
            inputs: {x: {shape: [10, 4], init: {normal: [0, 100]}}}
            """, """
            op: reduce_sum
            inputs: {x: {shape: [100], init: {uniform: [5000, 5100]}}}
            """, """
            op: conv3dnew
            seed: 3
            attrs: {kD: 2, kH: 2, kW: 2, sD: 1, sH: 1, sW: 1, pD: 0, pH: 0, pW: 0, dD: 1, dH: 1, dW: 1,
                    paddingMode: 1, isNCDHW: 0}
            inputs:
              x: {shape: [1, 3, 3, 4, 4], init: {uniform: [0, 10]}}
              w: {shape: [2, 2, 2, 3, 3], init: {uniform: [0, 10]}}
              b: {shape: [3], init: {uniform: [0, 10]}}
            """);

    @Test
    void falseAlarmsFromNd4jsOwnValidationPassAndABackwardOffByTenPpmStillFails() {
        for (String spec : FALSE_ALARMS) {
            CheckResult r = check(spec);
            assertEquals(Status.PASSED, r.status(), r.toString());
            CheckResult wrong = checkCorrupted(spec, Functions.scaledBy(1 + 1e-5));
            assertEquals(Status.FAILED, wrong.status(), "the noise allowance hides no real error: " + wrong);
        }
    }

    @Test
    void anExplicitDeltaIsAnAbsoluteStepAndTheComparisonStillKnowsItsNoise() {
        String sum = FALSE_ALARMS.get(3);
        GradientResult relative = check(sum).rowsOf(CheckKind.JACOBIAN).get(0);
        assertTrue(relative.maxRelError() < 1e-7, "δ·|x| = 5e-3 here: the noise ε·|y|/h is 1e-8: " + relative);
        CheckResult explicit = check(sum + "delta: 1.0e-6\n");
        assertEquals(1e-6, explicit.delta());
        GradientResult absolute = explicit.rowsOf(CheckKind.JACOBIAN).get(0);
        // the step is 1e-6 as written, noise 1e-4 there: every entry beyond the tolerance is judged again at
        // 100 times the step, where the noise is 1e-6, as precise as the tolerance
        assertEquals(Status.PASSED, explicit.status(), "no entry is off by more than that noise: " + absolute);
        assertTrue(absolute.maxRelError() < 1e-5, "judged at its most precise step: " + absolute);
        assertEquals(Status.FAILED, checkCorrupted(sum + "delta: 1.0e-6\n", Functions.scaledBy(1 + 1e-5)).status(),
                "and a backward 10 ppm off is resolved there");
    }

    // ---- float32 against its own noise ----

    private static final String TANH_FLOAT32 = """
            op: tanh
            inputs: {x: {shape: [3, 4], dtype: float32, init: {uniform: [-2, 2]}}}
            """;

    @ParameterizedTest
    @ValueSource(strings = {"full", "fast"})
    void float32CatchesABackwardOneTenthOfAPercentOffInEverySeed(String mode) {
        List<Long> missed = new ArrayList<>();
        List<Long> falseAlarms = new ArrayList<>();
        for (long seed = 1; seed <= 20; seed++) {
            String spec = TANH_FLOAT32 + "mode: " + mode + "\nseed: " + seed + "\n";
            if (checkCorrupted(spec, Functions.scaledBy(1 + 1e-3)).status() != Status.FAILED) {
                missed.add(seed);
            }
            if (check(spec).status() != Status.PASSED) {
                falseAlarms.add(seed);
            }
        }
        assertEquals(List.of(), missed, "seeds where a x(1+1e-3) backward passed");
        assertEquals(List.of(), falseAlarms, "seeds where the correct backward failed");
    }

    /** Correct float32 ops where a flat tolerance struggles: cancellation in the backward, ill-conditioned rows. */
    private static final List<String> CORRECT_FLOAT32 = List.of("""
            op: tanh
            inputs: {x: {shape: [8, 8], dtype: float32, init: {uniform: [-6, 6]}}}
            """, """
            op: sigmoid
            inputs: {x: {shape: [8, 8], dtype: float32, init: {uniform: [-12, 12]}}}
            """, """
            op: softmax
            attrs: {dimension: 1}
            inputs: {x: {shape: [4, 16], dtype: float32, init: {uniform: [-5, 5]}}}
            """, """
            op: matmul
            inputs:
              a: {shape: [6, 64], dtype: float32}
              b: {shape: [64, 5], dtype: float32}
            """, """
            op: layer_norm
            attrs: {dimensions: [1]}
            inputs:
              x: {shape: [3, 8], dtype: float32, init: {uniform: [1, 1.01]}}
              gain: {shape: [8], dtype: float32, init: {uniform: [0.5, 1.5]}}
              bias: {shape: [8], dtype: float32}
            """, """
            op: layer_norm
            attrs: {dimensions: [1]}
            inputs:
              x: {shape: [3, 8], dtype: float32, init: {uniform: [1, 1.1]}}
              gain: {shape: [8], dtype: float32, init: {uniform: [0.5, 1.5]}}
              bias: {shape: [8], dtype: float32}
            """);

    @Tag("slow")
    @Test
    void correctFloat32OpsPassIncludingLayerNormOnNearConstantRows() {
        List<String> falseAlarms = new ArrayList<>();
        for (String op : CORRECT_FLOAT32) {
            for (String mode : new String[] {"full", "fast"}) {
                for (long seed = 1; seed <= 5; seed++) {
                    CheckResult r = check(op + "mode: " + mode + "\nseed: " + seed + "\n");
                    if (r.status() != Status.PASSED) {
                        falseAlarms.add(r.toString());
                    }
                }
            }
        }
        assertEquals(List.of(), falseAlarms);
        String nearConstant = CORRECT_FLOAT32.get(4);
        assertEquals(Status.FAILED, checkCorrupted(nearConstant, Functions.scaledBy(1 + 1e-3)).status(),
                "rows spread 1% wide leave float32 enough precision to see a 0.1% error");
    }

    // ---- kinks in fast mode ----

    /** 65536 elements from -8 in steps of 1/4096: exactly one of them, x[128, 0], is 0. */
    private static final String RELU_ONE_ZERO = """
            op: relu
            mode: fast
            inputs: {x: {shape: [256, 256], init: {range: [-8, 0.000244140625]}}}
            """;

    @Tag("slow")
    @Test
    void reluWithOneExactZeroIsNondifferentiableInFastModeWithoutAFullRecheck() {
        CheckResult r = check(RELU_ONE_ZERO);
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertTrue(r.rowsOf(CheckKind.JACOBIAN).isEmpty(), "a full 65536 x 65536 block never fits: " + r);
        GradientResult fast = r.rowsOf(CheckKind.FAST).get(0);
        assertEquals(Verdict.NONDIFFERENTIABLE, fast.verdict());
        assertTrue(fast.note().contains("1 element of x at a kink (x[128, 0])"), fast.note());

        // a value outside relu's one-sided slopes at the kink is no subgradient; a wrong scale elsewhere still fails
        CheckResult wrongAtKink = checkCorrupted(RELU_ONE_ZERO, g -> g.dup().putScalar(new long[] {128, 0},
                g.getDouble(128, 0) - 3));
        assertEquals(Status.FAILED, wrongAtKink.status(), wrongAtKink.toString());
        assertTrue(wrongAtKink.rowsOf(CheckKind.FAST).get(0).note().contains("x[128, 0] sits at a kink"),
                wrongAtKink.toString());
        assertEquals(Status.FAILED, checkCorrupted(RELU_ONE_ZERO, Functions.scaledBy(1 + 1e-4)).status());
    }
}
