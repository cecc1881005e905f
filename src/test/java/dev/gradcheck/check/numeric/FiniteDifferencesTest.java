package dev.gradcheck.check.numeric;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.Stencil;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The stencils against exact derivatives where third derivatives are large: tan near its pole and exp of a large
 * argument. The higher-order stencils must cut the numerical error by orders of magnitude at the same δ.
 */
class FiniteDifferencesTest {

    private static double error(Stencil stencil, DoubleUnaryOperator f, double x, double delta, double exact) {
        double[] offsets = FiniteDifferences.offsets(stencil);
        double[][] values = new double[offsets.length][1];
        for (int k = 0; k < offsets.length; k++) {
            values[k][0] = f.applyAsDouble(x + offsets[k] * delta);
        }
        double d = FiniteDifferences.derivative(stencil, delta, values)[0];
        return Math.abs(d - exact) / Math.abs(exact);
    }

    @Test
    void higherOrderStencilsShrinkTheErrorNearTheTangentPole() {
        double x = 1.5; // π/2 − 0.07: tan‴ is about 1.6e7 here
        double exact = 1 / (Math.cos(x) * Math.cos(x));
        double central = error(Stencil.CENTRAL, Math::tan, x, 1e-3, exact);
        double fivePoint = error(Stencil.FIVE_POINT, Math::tan, x, 1e-3, exact);
        double richardson = error(Stencil.RICHARDSON, Math::tan, x, 1e-3, exact);
        assertTrue(central > 1e-4, "central differences err visibly here: " + central);
        assertTrue(fivePoint < central / 100, "five-point " + fivePoint + " vs central " + central);
        assertTrue(richardson < fivePoint, "richardson " + richardson + " vs five-point " + fivePoint);
    }

    @Test
    void higherOrderStencilsShrinkTheErrorOfExp() {
        double x = 10;
        double exact = Math.exp(x);
        double central = error(Stencil.CENTRAL, Math::exp, x, 1e-2, exact);
        double fivePoint = error(Stencil.FIVE_POINT, Math::exp, x, 1e-2, exact);
        double richardson = error(Stencil.RICHARDSON, Math::exp, x, 1e-2, exact);
        assertTrue(central > 1e-5, "δ²/6 relative error: " + central);
        assertTrue(fivePoint < central / 1000, "five-point " + fivePoint);
        assertTrue(richardson < fivePoint, "richardson " + richardson);
    }

    @Test
    void everyStencilIsExactOnACubic() {
        // x³ has f⁽⁴⁾ = 0: five-point and Richardson are exact up to rounding, central is off by δ²
        DoubleUnaryOperator cube = v -> v * v * v;
        double exact = 3 * 2.0 * 2.0;
        assertTrue(error(Stencil.CENTRAL, cube, 2.0, 1e-2, exact) > 1e-6);
        assertTrue(error(Stencil.FIVE_POINT, cube, 2.0, 1e-2, exact) < 1e-12);
        assertTrue(error(Stencil.RICHARDSON, cube, 2.0, 1e-2, exact) < 1e-12);
    }
}
