package dev.gradcheck.check.numeric;

import dev.gradcheck.result.Stencil;

/**
 * The stencils: where to evaluate f around x (as multiples of δ) and how to combine the values into f′(x).
 * Central differences err by O(δ²)·f‴; the five-point stencil by O(δ⁴)·f⁽⁵⁾; Richardson extrapolation of central
 * differences at δ, δ/2, δ/4 by O(δ⁶). The higher orders pay off where third derivatives are large (exp of large
 * arguments, tan near its pole) or δ must be large; they cost 4 and 6 evaluations per derivative instead of 2.
 */
public final class FiniteDifferences {

    private FiniteDifferences() {}

    public static double[] offsets(Stencil stencil) {
        return switch (stencil) {
            case CENTRAL -> new double[] {1, -1};
            case FIVE_POINT -> new double[] {1, -1, 2, -2};
            case RICHARDSON -> new double[] {1, -1, 0.5, -0.5, 0.25, -0.25};
        };
    }

    /**
     * How much the stencil amplifies rounding in the values it combines: the sum of its weights' magnitudes, times
     * δ. A rounding error r in each value becomes at most gain·r/δ in the derivative (central 1, five-point 1.5,
     * Richardson 297/45 = 6.6).
     */
    static double gain(Stencil stencil) {
        return switch (stencil) {
            case CENTRAL -> 1;
            case FIVE_POINT -> 18.0 / 12;
            case RICHARDSON -> 297.0 / 45;
        };
    }

    /** The order p of the stencil's truncation error, O(δ^p). */
    static int order(Stencil stencil) {
        return switch (stencil) {
            case CENTRAL -> 2;
            case FIVE_POINT -> 4;
            case RICHARDSON -> 6;
        };
    }

    /**
     * @param values {@code values[k][j]}: output element j evaluated at x + offsets[k]·δ
     * @return the derivative of each output element
     */
    static double[] derivative(Stencil stencil, double delta, double[][] values) {
        return derivative(stencil, delta, values, new double[values[0].length]);
    }

    /** The same, written into {@code d} (every element), which it returns. */
    static double[] derivative(Stencil stencil, double delta, double[][] values, double[] d) {
        int m = values[0].length;
        for (int j = 0; j < m; j++) {
            double c1 = (values[0][j] - values[1][j]) / (2 * delta);
            d[j] = switch (stencil) {
                case CENTRAL -> c1;
                case FIVE_POINT -> (8 * (values[0][j] - values[1][j]) - (values[2][j] - values[3][j])) / (12 * delta);
                case RICHARDSON -> {
                    double c2 = (values[2][j] - values[3][j]) / delta;
                    double c4 = (values[4][j] - values[5][j]) / (delta / 2);
                    double r1 = (4 * c2 - c1) / 3;
                    double r2 = (4 * c4 - c2) / 3;
                    yield (16 * r2 - r1) / 15;
                }
            };
        }
        return d;
    }
}
