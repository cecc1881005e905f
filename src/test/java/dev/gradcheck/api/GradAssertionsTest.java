package dev.gradcheck.api;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.WorstElement;
import dev.gradcheck.spi.Operator;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;

/** What a failing test tells its reader. */
class GradAssertionsTest {

    private static GradCheck check(Operator op) {
        return GradCheck.of(op).input("x", Nd4j.createFromArray(new double[][] {{0.5, -1.2}, {1.5, 0.3}}))
                .input("w", Nd4j.createFromArray(new double[][] {{-0.4, 0.9}, {0.2, -1.6}}));
    }

    @Test
    void aMatchingGradientPassesSilently() {
        GradAssertions.assertGradientsMatch(check(Mul.correct()));
    }

    @Test
    void aMismatchNamesTheBlockAndItsWorstElement() {
        CheckResult r = check(Mul.wrongWeightGradient()).check();
        AssertionError e = assertThrows(AssertionError.class, () -> GradAssertions.assertGradientsMatch(r));
        WorstElement w = r.worstGradient().worst();
        String expectedAt = "worst at y[" + w.outputIndex()[0] + ", " + w.outputIndex()[1] + "] / w["
                + w.inputIndex()[0] + ", " + w.inputIndex()[1] + "]: analytic ";
        assertTrue(e.getMessage().startsWith("gradients of mul do not match"), e.getMessage());
        assertTrue(e.getMessage().contains("dy/dw: mismatch, max rel err 1.00e-02"), e.getMessage());
        assertTrue(e.getMessage().contains(expectedAt), e.getMessage());
        assertTrue(!e.getMessage().contains("dy/dx"), "only the failing block: " + e.getMessage());
    }

    @Test
    void anOperatorErrorFailsWithItsMessage() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> GradAssertions.assertGradientsMatch(check(Mul.throwingInBackward())));
        assertTrue(e.getMessage().contains("could not be checked: the operator failed")
                && e.getMessage().contains("plugin op 'mul'")
                && e.getMessage().contains("UnsupportedOperationException: backward not written yet"), e.getMessage());
    }
}
