package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.spec.Tolerance;
import org.junit.jupiter.api.Test;

/** Both comparison rules, at their edges. */
class ToleranceTest {

    @Test
    void paddleRuleIsRelativeForLargeValuesAndAbsoluteForSmallOnes() {
        Tolerance t = new Tolerance.MaxRelative(1e-3);
        assertEquals(0.5, t.score(100.05, 100), 1e-9, "relative to |n| = 100");
        assertEquals(2.0, t.score(2e-3, 0), 1e-9, "|n| < 1e-3: denominator 1");
        assertTrue(t.score(1.0011, 1.0) > 1);
    }

    @Test
    void allCloseRuleAddsAbsoluteAndRelativeAllowances() {
        Tolerance t = new Tolerance.AllClose(1e-5, 1e-3);
        assertEquals(1.0, t.score(1 + 1e-5 + 1e-3, 1), 1e-6);
        assertTrue(t.score(0, 1e-6) < 1, "allclose alone would pass a zero against a tiny value");
    }

    @Test
    void nanNeverPasses() {
        assertTrue(new Tolerance.MaxRelative(1).score(Double.NaN, 1) > 1);
        assertTrue(new Tolerance.AllClose(1, 1).score(1, Double.NaN) > 1);
    }

    @Test
    void exactRuleAcceptsOnlyEquality() {
        Tolerance t = new Tolerance.AllClose(0, 0);
        assertEquals(0.0, t.score(3, 3));
        assertTrue(Double.isInfinite(t.score(3, 3.0000001)));
    }
}
