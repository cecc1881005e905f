package dev.gradcheck.check.numeric;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * The forward's own noise along a line, measured rather than modelled. The rounding model ({@link NumericalError})
 * knows an output's magnitude, not how the forward reached it: a score that is a float64 sum of n terms added one
 * after another carries rounding of about ε·|f|·√n/6, not ε·|f| (DL4J's CnnLossLayer at 8×64×28×28, 401,408 terms:
 * 88·ε·|f| measured against a compensated sum, where the model allows 24·ε·|f| per evaluation).
 *
 * <p>Measured as Moré and Wild's ECnoise does: φ at {@value #POINTS} equally spaced points over [−2h, 2h], its
 * k-th differences for k = {@value #LOWEST_ORDER} to {@value #HIGHEST_ORDER}. Noise of standard deviation σ gives
 * each order the same σ_k = √(γ_k·mean((Δᵏφ)²)), γ_k = (k!)²/(2k)!, and differences that change sign; a smooth φ
 * gives differences that shrink by the step's share of φ's scale at each order and keep their sign. So a level is
 * reported only where every order agrees within {@value #AGREEMENT}× and changes sign; otherwise none (0), and the
 * model alone decides. A kink also looks like noise here: callers ask only along lines the kink probe found smooth.
 */
public final class LineNoise {

    /** Points over [−2h, 2h], spacing h/4: 16 forward evaluations (φ(0) is known). */
    static final int POINTS = 17;

    static final int LOWEST_ORDER = 4;

    static final int HIGHEST_ORDER = 6;

    /** The orders' estimates must agree within this factor (ECnoise's own threshold). */
    static final double AGREEMENT = 4;

    /** Each order's differences must change sign at least this many times. */
    static final int SIGN_CHANGES = 2;

    private LineNoise() {}

    /**
     * The standard deviation of φ's noise at the scale of the step h, or 0 where φ shows none.
     *
     * @param phi φ(t), evaluated at t = j·h/4 for j = −8..8, j ≠ 0
     * @param at0 φ(0), not evaluated again
     */
    public static double level(DoubleUnaryOperator phi, double h, double at0) {
        int half = POINTS / 2;
        double[] values = new double[POINTS];
        for (int j = -half; j <= half; j++) {
            values[j + half] = j == 0 ? at0 : phi.applyAsDouble(j * h / 4);
        }
        return level(values);
    }

    /** The level from equally spaced values of φ: the orders' median where they agree, else 0. */
    static double level(double[] values) {
        double[] estimates = new double[HIGHEST_ORDER - LOWEST_ORDER + 1];
        double[] d = values.clone();
        int length = d.length;
        for (int k = 1; k <= HIGHEST_ORDER; k++) {
            length--;
            for (int i = 0; i < length; i++) {
                d[i] = d[i + 1] - d[i];
            }
            if (k >= LOWEST_ORDER) {
                if (signChanges(d, length) < SIGN_CHANGES) {
                    return 0;
                }
                estimates[k - LOWEST_ORDER] = Math.sqrt(gamma(k) * meanSquare(d, length));
            }
        }
        double[] sorted = estimates.clone();
        Arrays.sort(sorted);
        boolean agree = sorted[0] > 0 && sorted[sorted.length - 1] <= AGREEMENT * sorted[0];
        return agree ? sorted[sorted.length / 2] : 0;
    }

    /** γ_k = (k!)²/(2k)!: the k-th difference of independent noise of variance σ² has variance σ²/γ_k. */
    static double gamma(int k) {
        double g = 1;
        for (int i = 1; i <= k; i++) {
            g *= (double) i / (k + i);
        }
        return g;
    }

    private static double meanSquare(double[] d, int length) {
        double sum = 0;
        for (int i = 0; i < length; i++) {
            sum += d[i] * d[i];
        }
        return sum / length;
    }

    private static int signChanges(double[] d, int length) {
        int changes = 0;
        for (int i = 1; i < length; i++) {
            changes += d[i] * d[i - 1] < 0 ? 1 : 0;
        }
        return changes;
    }
}
