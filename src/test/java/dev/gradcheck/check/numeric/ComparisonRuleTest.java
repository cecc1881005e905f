package dev.gradcheck.check.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.Specs;
import dev.gradcheck.check.target.Defaults;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.result.Stencil;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.Tolerance;
import org.junit.jupiter.api.Test;

/** The per-entry judgement, the numerical side's error bounds, the step rule and the per-dtype defaults. */
class ComparisonRuleTest {

    private static final Tolerance STRICT = new Tolerance.MaxRelative(1e-6);

    @Test
    void anEntryIsAMismatchOnlyBeyondBothTheToleranceAndTheNumericalSidesError() {
        assertTrue(JacobianComparison.score(STRICT, 1 + 5e-6, 1, 0) > 1, "no error bound: the tolerance decides");
        assertTrue(JacobianComparison.score(STRICT, 1 + 5e-6, 1, 1e-5) <= 1, "within what the differences resolve");
        assertTrue(JacobianComparison.score(STRICT, 1 + 5e-5, 1, 1e-5) > 1, "beyond both");
        assertEquals(STRICT.score(1 + 5e-7, 1), JacobianComparison.score(STRICT, 1 + 5e-7, 1, 1),
                "within the tolerance the score is the tolerance's");
        assertTrue(JacobianComparison.score(STRICT, Double.NaN, 1, 1e300) > 1, "NaN never passes");
        assertTrue(JacobianComparison.score(STRICT, 2, 1, Double.POSITIVE_INFINITY) > 1,
                "an unbounded error excuses nothing");
    }

    @Test
    void aBlockSaysWhichEntriesPassedOnTheNumericalSidesErrorAlone() {
        long[] shape = {2};
        Jacobian analytic = new Jacobian(shape, shape, new double[][] {{1 + 5e-6, 0}, {0, 2}});
        Jacobian numerical = new Jacobian(shape, shape, new double[][] {{1, 0}, {0, 2 + 1e-4}});
        NumericalError errors = (r, c) -> r == 0 ? 1e-5 : 1e-7;
        JacobianComparison.Row row = JacobianComparison.compare(analytic, numerical, errors,
                EntryFilter.NONE, new JacobianComparison.Criteria(STRICT, 1e-6, 2));
        assertEquals(Verdict.MISMATCH, row.verdict(), "the second diagonal entry is off by 5e-5, resolvably");
        assertEquals(1, row.withinError());
        assertTrue(row.errorNote().startsWith("1 entry differs by more than the tolerance but less than the finite"
                + " differences' own error (up to 1.0e-05)"), row.errorNote());
        JacobianComparison.Row same = JacobianComparison.compare(analytic, analytic, errors,
                EntryFilter.NONE, new JacobianComparison.Criteria(STRICT, 1e-6, 2));
        assertEquals(Verdict.PASS, same.verdict());
        assertNull(same.errorNote());
    }

    @Test
    void roundingBoundIsEpsilonTimesTheOutputOverTheStepWithTheStencilsGain() {
        double central = NumericalError.rounding(Stencil.CENTRAL, 5e5, 1e-6);
        assertEquals(4 * Math.ulp(1.0) * 5e5 / 1e-6, central, 1e-12, "about 4.4e-4: reduce_sum near 5000");
        assertEquals(1.5 * central, NumericalError.rounding(Stencil.FIVE_POINT, 5e5, 1e-6), 1e-12);
        assertEquals(central / 5000, NumericalError.rounding(Stencil.CENTRAL, 5e5, 5e-3), 1e-15,
                "the relative step at 5000 divides it by 5000");
    }

    @Test
    void theHalfStepBoundCoversTheTruncationErrorOfEachStencil() {
        // f = x³ at 1: central D(h) = 3 + h², so its error is h²; five-point's is O(h⁴) and so is the bound
        double h = 1e-2;
        double atH = 3 + h * h;
        double atHalf = 3 + h * h / 4;
        double bound = NumericalError.fromHalfStep(Stencil.CENTRAL, atH, atHalf);
        assertTrue(bound >= h * h && bound <= 1.5 * h * h, "bound " + bound + " for an error of " + h * h);
        assertEquals(0, NumericalError.fromHalfStep(Stencil.FIVE_POINT, 3, 3));
    }

    @Test
    void theDefaultStepIsRelativeAndAnExplicitDeltaIsNot() {
        Step relative = new Step(1e-6, true);
        assertEquals(5e-3, relative.at(5000), 1e-18);
        assertEquals(5e-3, relative.at(-5000), 1e-18);
        assertEquals(1e-6, relative.at(0.25), "below 1 the step is δ itself");
        Step absolute = new Step(1e-6, false);
        assertEquals(1e-6, absolute.at(5000));
        assertTrue(Settings.of(Specs.parse("op: tanh\ninputs: {x: {shape: [2]}}\n")).step().relative());
        Settings explicit = Settings.of(Specs.parse("op: tanh\ndelta: 1.0e-4\ninputs: {x: {shape: [2]}}\n"));
        assertEquals(new Step(1e-4, false), explicit.step());
    }

    @Test
    void float32IsJudgedAgainstItsOwnMeasuredNoise() {
        double eps = Math.ulp(1.0f);
        assertEquals(new Tolerance.AllClose(16 * eps, 256 * eps), Defaults.tolerance(DType.FLOAT32, 0, 3),
                "quiet forward: 3.05e-5 relative, and 1.9e-6 absolute at a block scale of at least 1");
        assertEquals(new Tolerance.AllClose(16 * eps * 0.25, 256 * eps), Defaults.tolerance(DType.FLOAT32, 0, 0.25));
        assertEquals(new Tolerance.AllClose(8e-4 * 30, 8e-4), Defaults.tolerance(DType.FLOAT32, 1e-4, 30),
                "a forward 1e-4 off float64 (near-constant layer norm): both parts follow 8 times that noise");
        assertEquals(new Tolerance.AllClose(0.1 * 30, 0.1), Defaults.tolerance(DType.FLOAT32, Double.NaN, 30),
                "a forward that overflows where float64 does not: the cap");
        assertTrue(Defaults.tolerance(DType.FLOAT32, 0, 1).score(1.001, 1) > 30, "a 0.1% error is 30x over it");
        assertEquals(new Tolerance.MaxRelative(1e-6), Defaults.tolerance(DType.FLOAT64, 0.5, 1),
                "float64 measures nothing");
        assertEquals(new Tolerance.MaxRelative(5e-2), Defaults.tolerance(DType.FLOAT16, 1e-3, 1));
        assertEquals(new Tolerance.MaxRelative(8e-2), Defaults.tolerance(DType.FLOAT16, 1e-2, 1));
    }
}
