package dev.gradcheck.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spi.Operator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The library entry point: the same checker as the CLI, on arrays handed in from Java. */
class GradCheckTest {

    private static INDArray x() {
        return Nd4j.createFromArray(new double[][] {{0.5, -1.2, 2.0}, {1.5, 0.3, -0.7}});
    }

    private static INDArray w() {
        return Nd4j.createFromArray(new double[][] {{-0.4, 0.9, 1.1}, {0.2, -1.6, 0.8}});
    }

    @Test
    void aCorrectOperatorPassesEveryBlock() {
        CheckResult r = GradCheck.of(Mul.correct()).input("x", x()).input("w", w()).attr("scale", 3).check();
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals(List.of("y/x", "y/w"), r.rowsOf(CheckKind.JACOBIAN).stream()
                .map(g -> g.output() + "/" + g.input()).toList());
        assertEquals("float64", r.dtype());
        assertEquals(1e-6, r.delta());
    }

    @Test
    void aWrongBackwardFailsOnTheWrongInputOnly() {
        CheckResult r = GradCheck.of(Mul.wrongWeightGradient()).input("x", x()).input("w", w()).check();
        assertEquals(Status.FAILED, r.status());
        GradientResult worst = r.worstGradient();
        assertEquals("w", worst.input());
        assertEquals(Verdict.MISMATCH, worst.verdict());
        assertEquals(0.01, worst.maxRelError(), 1e-6);
        assertEquals(Verdict.PASS, r.gradients().get(0).verdict(), "dy/dx is right");
    }

    @Test
    void theAttributeReachesForwardAndBackward() {
        // with scale 3 the numerical dy/dw is 3·x; a wrong backward that ignored scale would fail
        CheckResult r = GradCheck.of(Mul.correct()).input("x", x()).input("w", w()).attr("scale", 3).wrt("w")
                .check();
        GradientResult g = r.gradients().get(0);
        double x = x().getDouble(g.worst().inputIndex()[0], g.worst().inputIndex()[1]);
        assertEquals(3 * x, g.worst().numerical(), 1e-8);
    }

    @Test
    void float32InputsGetFloat32Defaults() {
        CheckResult r = GradCheck.of(Mul.correct()).input("x", x().castTo(DataType.FLOAT))
                .input("w", w().castTo(DataType.FLOAT)).check();
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals("float32", r.dtype());
        assertEquals(1e-6, r.delta(), "differences are taken in float64 whatever the inputs' dtype");
        assertTrue(r.tolerance().startsWith("float32 default: rtol=max(3.05e-05, 8v)"),
                "float32 is judged against its own measured noise: " + r.tolerance());
    }

    @Test
    void wrtNoGradAndToleranceAreHonoured() {
        CheckResult r = GradCheck.of(Mul.wrongWeightGradient()).input("x", x()).input("w", w()).noGrad("w")
                .check();
        assertEquals(Status.PASSED, r.status(), "the wrong w-gradient is not checked");
        assertEquals(1, r.rowsOf(CheckKind.JACOBIAN).size());
        CheckResult loose = GradCheck.of(Mul.wrongWeightGradient()).input("x", x()).input("w", w()).wrt("w")
                .maxRelativeError(0.02).check();
        assertEquals(Status.PASSED, loose.status(), "a 1% error within a 2% tolerance");
        CheckResult strict = GradCheck.of(Mul.wrongWeightGradient()).input("x", x()).input("w", w()).wrt("w")
                .allClose(0, 1e-3).check();
        assertEquals(Status.FAILED, strict.status());
    }

    @Test
    void aMisnamedInputIsInvalidAndABadWrtIsRejected() {
        CheckResult r = GradCheck.of(Mul.correct()).input("x", x()).input("v", w()).check();
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().contains("has no input 'v'") && r.message().contains("needs input 'w'"), r.message());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GradCheck.of(Mul.correct()).input("x", x()).input("w", w()).wrt("z").check());
        assertTrue(e.getMessage().contains("'z'"), e.getMessage());
    }

    @Test
    void nd4jOpsCanBeCheckedTooIncludingAKnownBug() {
        INDArray x = Nd4j.createFromArray(new double[][] {{0.5, -1.0}, {1.5, 2.0}, {-0.5, 0.25}});
        assertEquals(Status.PASSED, GradCheck.ofNd4j("tanh").input("x", x).check().status());
        // docs/nd4j-findings.md: cumprod's backward is wrong along axis 0
        CheckResult cumprod = GradCheck.ofNd4j("cumprod").input("x", x).input("axis", Nd4j.scalar(0))
                .attr("exclusive", 0).attr("reverse", 0).check();
        assertEquals(Status.FAILED, cumprod.status(), cumprod.toString());
    }

    @Test
    void aCorrectJvpPassesAgainstTheNumericalJacobianTimesU() {
        CheckResult r = GradCheck.of(Mul.withJvp(Mul.Jvp.CORRECT)).input("x", x()).input("w", w()).attr("scale", 2)
                .check();
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals(List.of("jacobian y/x", "jacobian y/w", "jvp y/x", "jvp y/w"), r.gradients().stream()
                .filter(g -> !g.kind().isSanityCheck())
                .map(g -> g.kind().reportName() + " " + g.output() + "/" + g.input()).toList());
    }

    @Test
    void aWrongJvpFailsOnItsOwnBlockWhileTheBackwardPasses() {
        CheckResult r = GradCheck.of(Mul.withJvp(Mul.Jvp.WITHOUT_W_TERM)).input("x", x()).input("w", w()).check();
        assertEquals(Status.FAILED, r.status());
        List<String> failing = r.gradients().stream().filter(g -> !g.verdict().passed())
                .map(g -> g.kind().reportName() + " " + g.input()).toList();
        assertEquals(List.of("jvp w"), failing, "the JVP ignores w's tangent: J·u along w is zero");
        assertEquals(Verdict.ZERO_GRADIENT, r.worstGradient().verdict());
    }

    @Test
    void javaArrayAttributesReachAnNd4jOp() {
        INDArray x = Nd4j.rand(DataType.DOUBLE, 2, 3, 4);
        CheckResult r = GradCheck.ofNd4j("reduce_sum").input("x", x).attr("dimensions", new int[] {0, 2}).check();
        assertEquals(Status.PASSED, r.status(), r.toString());
        // summed over axes 0 and 2 the output is [3]; an ignored attribute would sum everything to a scalar
        assertEquals(1, r.gradients().get(0).worst().outputIndex().length);
    }

    @Test
    void theConvenienceAssertionTakesAMapOfInputs() {
        GradAssertions.assertGradientsMatch(Mul.correct(), Map.of("x", x(), "w", w()));
        assertThrows(AssertionError.class,
                () -> GradAssertions.assertGradientsMatch(Mul.wrongWeightGradient(), Map.of("x", x(), "w", w())));
    }

    @Test
    void settingsTheSpecValidatorRejectsThrowInsteadOfLettingAWrongBackwardPass() {
        GradCheck wrong = GradCheck.of(Mul.wrongWeightGradient()).input("x", x()).input("w", w());
        assertEquals(Status.FAILED, wrong.check().status(), "the 1% error fails at the default tolerance");
        // each of these, if accepted, would make the wrong backward pass (or check nothing, or blame the op)
        List<Runnable> rejected = List.of(
                () -> wrong.maxRelativeError(-1e-6),
                () -> wrong.maxRelativeError(0),
                () -> wrong.maxRelativeError(Double.POSITIVE_INFINITY),
                () -> wrong.maxRelativeError(Double.NaN),
                () -> wrong.allClose(-1e-6, 0),
                () -> wrong.allClose(0, -1),
                () -> wrong.allClose(0, 0),
                () -> wrong.allClose(Double.POSITIVE_INFINITY, 0),
                () -> wrong.delta(0),
                () -> wrong.delta(-1e-6),
                () -> wrong.delta(Double.NaN),
                () -> wrong.maxElements(0),
                () -> wrong.maxElements(-1),
                () -> wrong.nondetTol(-1),
                () -> wrong.nondetTol(Double.POSITIVE_INFINITY));
        for (Runnable setter : rejected) {
            assertThrows(IllegalArgumentException.class, setter::run);
        }
        assertEquals(Status.FAILED, wrong.check().status(), "no rejected setting took effect");
        assertEquals(Status.PASSED, wrong.allClose(0, 0.02).nondetTol(0).maxElements(1).check().status(),
                "the bounds themselves are accepted");
    }

    @Test
    void anOperatorWhoseMetadataThrowsIsRejectedNamingTheMethod() {
        Operator mul = Mul.correct();
        Operator broken = new Operator() {
            public String name() {
                return mul.name();
            }

            public List<String> inputNames() {
                throw new IllegalStateException("no names today");
            }

            public List<String> outputNames() {
                return mul.outputNames();
            }

            public Map<String, INDArray> forward(Map<String, INDArray> in, Map<String, Object> attrs) {
                return mul.forward(in, attrs);
            }

            public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                                  Map<String, INDArray> grads, Map<String, Object> attrs) {
                return mul.backward(in, out, grads, attrs);
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GradCheck.of(broken));
        assertTrue(e.getMessage().contains("plugin op 'mul'") && e.getMessage().contains("inputNames() threw")
                && e.getMessage().contains("no names today"), e.getMessage());
    }
}
