package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.OpSpec;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/** The checker on a function whose Jacobian is known, with a right and several wrong backwards. */
class GradientCheckerTest {

    /** Two inputs, two outputs, Jacobians in closed form ({@link Functions#squareAndDot()}). */
    static final String SPEC = """
            name: square-and-dot
            op: test-function
            inputs:
              x: {shape: [2, 3], init: {uniform: [0.5, 2]}}
              w: {shape: [2, 3], init: {uniform: [-1, 1]}}
            """;

    private static CheckResult check(String yaml, UnaryOperator<INDArray> backward) {
        OpSpec spec = Specs.parse(yaml);
        FunctionFactory factory = (s, inputs) -> backward == null
                ? Functions.squareAndDot()
                : Functions.withBackward(Functions.squareAndDot(), backward);
        return new GradientChecker(factory, "test").check(spec);
    }

    static List<GradientResult> jacobian(CheckResult r) {
        return r.rowsOf(CheckKind.JACOBIAN);
    }

    @Test
    void correctBackwardPassesEveryBlock() {
        CheckResult r = check(SPEC, null);
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals(4, jacobian(r).size(), "two outputs x two inputs");
        for (GradientResult g : r.gradients()) {
            assertEquals(Verdict.PASS, g.verdict());
            assertTrue(g.maxRelError() < 1e-8, g.toString());
        }
        assertEquals(List.of("0/x", "0/w", "1/x", "1/w"),
                jacobian(r).stream().map(g -> g.output() + "/" + g.input()).toList());
    }

    @Test
    void scaledBackwardFailsAndNamesTheWorstElement() {
        CheckResult r = check(SPEC, Functions.scaledBy(1.01));
        assertEquals(Status.FAILED, r.status());
        GradientResult worst = r.worstGradient();
        assertEquals(Verdict.MISMATCH, worst.verdict());
        assertEquals(0.01, worst.maxRelError(), 1e-6, "1% too large, everywhere");
        // the analytic value at the worst element is the numerical one, scaled
        assertEquals(worst.worst().numerical() * 1.01, worst.worst().analytic(), 1e-8);
        assertEquals(2, worst.worst().inputIndex().length, "a multi-index into the [2, 3] input");
    }

    @Test
    void rolledBackwardFailsThoughEveryValueIsPresent() {
        CheckResult r = check(SPEC, Functions.rolled());
        assertEquals(Status.FAILED, r.status());
        assertFalse(jacobian(r).isEmpty(), r.toString());
        assertTrue(jacobian(r).stream().allMatch(g -> g.verdict() == Verdict.MISMATCH));
    }

    @Test
    void zeroBackwardFailsEvenUnderALaxTolerance() {
        // |a - n| <= 10 + 10|n| accepts 0 for any n here: only the zero-gradient rule can catch it
        String lax = SPEC + "tolerance: {atol: 10, rtol: 10}\n";
        CheckResult r = check(lax, Functions.zeroed());
        assertEquals(Status.FAILED, r.status());
        for (GradientResult g : jacobian(r)) {
            assertEquals(Verdict.ZERO_GRADIENT, g.verdict(), g.toString());
            assertEquals(0.0, Math.abs(g.worst().analytic()));
            assertTrue(Math.abs(g.worst().numerical()) > 0.1);
        }
    }

    @Test
    void nanInTheBackwardIsItsOwnVerdictNeverAPass() {
        // even a tolerance that accepts any finite error must not let a NaN through
        CheckResult r = check(SPEC + "tolerance: {atol: 1.0e+300, rtol: 1}\n", g -> g.dup().putScalar(0, Double.NaN));
        assertEquals(Status.FAILED, r.status());
        GradientResult worst = r.worstGradient();
        assertEquals(Verdict.NON_FINITE, worst.verdict(), r.toString());
        assertTrue(Double.isNaN(worst.worst().analytic()), "the report points at the NaN: " + worst);
    }

    @Test
    void infinityInTheForwardOutputIsNonFiniteThoughTheGradientsAgree() {
        // y0 = x*x*w with one output element forced to +inf: the Jacobians are fine, the output is not
        FunctionFactory factory = (s, inputs) -> new Functions.Delegate(Functions.squareAndDot()) {
            @Override
            public java.util.Map<String, INDArray> forward(java.util.Map<String, INDArray> in) {
                java.util.Map<String, INDArray> y = new java.util.HashMap<>(super.forward(in));
                y.put("0", y.get("0").dup().putScalar(0, Double.POSITIVE_INFINITY));
                return y;
            }
        };
        CheckResult r = new GradientChecker(factory, "test").check(Specs.parse(SPEC));
        assertEquals(Status.FAILED, r.status());
        List<Verdict> verdicts = r.rowsOf(CheckKind.JACOBIAN).stream().map(GradientResult::verdict).toList();
        assertEquals(List.of(Verdict.NON_FINITE, Verdict.NON_FINITE, Verdict.PASS, Verdict.PASS), verdicts,
                "only the blocks of the infinite output");
    }

    @Test
    void expectedFailureThatFailsIsExpected() {
        String spec = SPEC + "expect: fail\nreason: the backward is scaled on purpose\n";
        assertEquals(Status.EXPECTED_FAIL, check(spec, Functions.scaledBy(2)).status());
        assertEquals(Status.UNEXPECTED_PASS, check(spec, null).status());
    }

    @Test
    void operatorExceptionIsAnErrorWithItsMessage() {
        CheckResult r = check(SPEC, g -> {
            throw new IllegalStateException("kernel exploded");
        });
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("kernel exploded"), r.message());
        String expectError = SPEC + "expect: error\nreason: known crash\n";
        assertEquals(Status.EXPECTED_ERROR, check(expectError, g -> {
            throw new IllegalStateException("kernel exploded");
        }).status());
    }

    @Test
    void wrongGradientShapeIsAnErrorNamingTheInput() {
        CheckResult r = check(SPEC, g -> g.reshape(g.length()).get(org.nd4j.linalg.indexing.NDArrayIndex.interval(0, 2)));
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("for input 'x'") || r.message().contains("for input 'w'"), r.message());
    }

    @Test
    void onlyTheNamedOutputIsChecked() {
        CheckResult r = check(SPEC + "output: 1\n", null);
        assertEquals(List.of("1", "1"), jacobian(r).stream().map(GradientResult::output).toList());
    }

    @Test
    void unknownOutputIsAnInvalidSpecWithItsPosition() {
        CheckResult r = check(SPEC + "output: 5\n", null);
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().matches("(?s).*:6:9: output '5' does not exist.*has 2 outputs \\(0, 1\\).*"),
                r.message());
    }

    @Test
    void checkListLimitsTheInputs() {
        CheckResult r = check(SPEC + "check: [w]\n", null);
        assertFalse(jacobian(r).isEmpty(), r.toString());
        assertTrue(jacobian(r).stream().allMatch(g -> g.input().equals("w")));
    }

    @Test
    void defaultsComeFromTheDtype() {
        CheckResult r = check(SPEC, null);
        assertEquals(1e-6, r.delta());
        assertEquals("max_relative_error=1.0E-6", r.tolerance());
        assertNull(r.message());
    }
}
