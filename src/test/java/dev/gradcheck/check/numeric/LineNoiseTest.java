package dev.gradcheck.check.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The forward's noise along a line: found at its level where φ carries independent noise, whatever the smooth part
 * under it, and not found (0) on smooth lines, even ones that curve at the scale of the step.
 */
class LineNoiseTest {

    private static final double H = 1e-4;

    @Test
    void gammaIsTheVarianceRatioOfDifferences() {
        assertEquals(0.5, LineNoise.gamma(1), 1e-15);
        assertEquals(1.0 / 6, LineNoise.gamma(2), 1e-15);
        assertEquals(720.0 * 720 / 479_001_600, LineNoise.gamma(6), 1e-15); // (6!)²/12!
    }

    /**
     * Gaussian noise of σ on a line 10⁶ times larger, sloped and curved: found on each of 200 draws of 17 points,
     * within a factor of 2 on 90%, never below a fifth (simulated: 0.1% of draws fall below 0.26·σ).
     */
    @Test
    void independentNoiseIsMeasuredAtItsLevel() {
        SplittableRandom random = new SplittableRandom(37);
        double sigma = 1e-9;
        int within = 0;
        double least = Double.POSITIVE_INFINITY;
        for (int draw = 0; draw < 200; draw++) {
            double level = LineNoise.level(t -> 1e-3 + 0.3 * t + 2 * t * t + sigma * gaussian(random), H, 1e-3);
            assertTrue(level > 0, "found at draw " + draw);
            within += level > sigma / 2 && level < 2 * sigma ? 1 : 0;
            least = Math.min(least, level);
        }
        assertTrue(within >= 180, within + " of 200 within a factor of 2");
        assertTrue(least > sigma / 5, "least " + least);
    }

    /** A smooth line shows at most its own evaluation's rounding, ε·|φ|: what the model allows already. */
    @Test
    void aSmoothLineShowsNoMoreThanItsRounding() {
        assertTrue(LineNoise.level(t -> Math.exp(3 * t) * 1e4, H, 1e4) <= NumericalError.EPSILON * 1e4);
        assertTrue(LineNoise.level(t -> 5 * t * t * t - t, H, 0) <= NumericalError.EPSILON * 2 * H);
    }

    /** sin(w·t) with w·h a fiftieth of a period: its differences shrink by w·h/4 at each order, never agree. */
    @Test
    void aLineCurvingAtTheScaleOfTheStepShowsNoNoise() {
        double w = 2 * Math.PI / 50 / H;
        assertTrue(LineNoise.level(t -> Math.sin(w * t + 0.3), H, Math.sin(0.3)) <= NumericalError.EPSILON);
    }

    /** A float64 sum of 10⁵ terms: its rounding measured, at several times the ε·|f| the model counts. */
    @Test
    void aLongSumsRoundingIsMeasuredAboveTheModel() {
        double[] terms = new SplittableRandom(3).doubles(100_000, 0, 1).toArray();
        double[] direction = new SplittableRandom(4).doubles(100_000, -1, 1).toArray();
        java.util.function.DoubleUnaryOperator sum = t -> {
            double s = 0;
            for (int i = 0; i < terms.length; i++) {
                double x = terms[i] + t * direction[i];
                s += x * x;
            }
            return s;
        };
        double f = sum.applyAsDouble(0);
        double level = LineNoise.level(sum, 1e-4, f);
        assertTrue(level > 10 * NumericalError.EPSILON * f, level / (NumericalError.EPSILON * f) + " times ε·|f|");
    }

    private static double gaussian(SplittableRandom random) {
        double u = random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
    }
}
