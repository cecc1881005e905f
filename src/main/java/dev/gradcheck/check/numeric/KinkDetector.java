package dev.gradcheck.check.numeric;

import dev.gradcheck.result.Stencil;

/**
 * Tells a kink from a smooth point using the finite-difference values themselves. With one-sided slopes s₊, s₋
 * over a step h and S₊, S₋ over 2h, the leftover L(h) = (S₊ − S₋) − 2(s₊ − s₋) is O(h³) at a smooth point (it
 * shrinks 8-fold when h halves) but about −J at a kink with a jump J in the derivative (relu at 0, abs at 0, max
 * with ties, a clip edge), whatever h. So a row is at a kink only when L is large at h <em>and</em> stays large at
 * h/2; a coarse δ on a smooth but sharply curved function (tan near its pole) is not mistaken for one.
 *
 * <p>At a kink no derivative exists, but a backward must still return one of the one-sided slopes or a value
 * between them (a subgradient): relu at 0 may say 0, 1 or ½, not −100. {@link Kind#KINK} is returned only when every
 * analytic value given lies in that range; otherwise {@link Kind#WRONG_AT_KINK}.
 *
 * <p>A probe looks along one line through x: an input element's axis (full mode), or a direction (fast mode, ties),
 * at x + {−2, −1, −½, 0, ½, 1, 2}·h, 6 forward evaluations (the outputs at x are known), or 4: ±2h are evaluated
 * only where a row's leftover over h/2 is above what a kink's threshold can be (at least the noise floor and the
 * fine slopes' share), or the five-point stencil needs them; elsewhere no row can be at a kink whatever they hold.
 * Only what already disagrees is probed, so a passing check costs nothing extra. The same values give each smooth row the stencil at
 * h/2 beside its value at h, so the probe also measures the numerical side's own error there
 * ({@link NumericalError#fromHalfStep}).
 */
public final class KinkDetector {

    /** Where a probe evaluates, in steps h. */
    private static final double[] OFFSETS = {-2, -1, -0.5, 0, 0.5, 1, 2};
    /** The offsets within ±h, evaluated first: ±2h only where a row could be at a kink, or the stencil needs them. */
    private static final int INNER_FROM = 1;
    private static final int INNER_TO = 5;

    public enum Kind { SMOOTH, KINK, WRONG_AT_KINK }

    /** The outputs along one line through x: {@code at(t)} is every output element, flat, at x + t·(direction). */
    @FunctionalInterface
    public interface Line {
        double[] at(double t);
    }

    /**
     * What a probe found, per probed row (aligned with the rows asked for).
     *
     * @param kinks      whether the row sits at a kink along the line
     * @param slopeMinus the one-sided slope from below, over h/2
     * @param slopePlus  the one-sided slope from above, over h/2
     * @param errors     for a smooth row, a bound on the stencil's error at h from its value at h/2; 0 where there is
     *                   none (at a kink, or for the Richardson stencil, whose half step the probe does not reach)
     * @param values     the stencil's value at h, from the probe's points; NaN for the Richardson stencil
     */
    public record Probe(Kind kind, boolean[] kinks, double[] slopeMinus, double[] slopePlus, double[] errors,
                 double[] values) {

        /** Whether a value lies between the row's one-sided slopes, with a little slack for their own noise. */
        boolean brackets(int r, double value, double slack) {
            return value >= Math.min(slopePlus[r], slopeMinus[r]) - slack
                    && value <= Math.max(slopePlus[r], slopeMinus[r]) + slack;
        }
    }

    private KinkDetector() {}

    /** Where a probe evaluates the line, in steps h (a copy). */
    public static double[] offsets() {
        return OFFSETS.clone();
    }

    /**
     * @param h           the step the numerical value was taken with along this line
     * @param flatRows    the output entries to test (those that disagreed)
     * @param analytic    the backward's value at each of those entries (its derivative along the line)
     * @param outputScale the largest |y|, for the rounding floor
     */
    public static Probe probe(Line line, double h, int[] flatRows, double[] analytic, double outputScale, Stencil stencil) {
        double[][] y = new double[OFFSETS.length][];
        for (int k = INNER_FROM; k <= INNER_TO; k++) {
            y[k] = line.at(OFFSETS[k] * h);
        }
        double noise = JacobianComparison.noiseFloor(outputScale, h / 2);
        if (stencil == Stencil.FIVE_POINT || anyKinkAtHalfStep(y, flatRows, h, noise)) {
            y[0] = line.at(OFFSETS[0] * h);
            y[OFFSETS.length - 1] = line.at(OFFSETS[OFFSETS.length - 1] * h);
        } else {
            return smooth(y, flatRows, h, stencil);
        }
        int m = flatRows.length;
        boolean[] kinks = new boolean[m];
        double[] minus = new double[m];
        double[] plus = new double[m];
        double[] errors = new double[m];
        double[] values = new double[m];
        boolean kink = false;
        boolean wrong = false;
        for (int r = 0; r < m; r++) {
            int j = flatRows[r];
            Slopes coarse = new Slopes(y[1][j], y[0][j], y[3][j], y[5][j], y[6][j], h); // f(−h), f(−2h), ...
            Slopes fine = new Slopes(y[2][j], y[1][j], y[3][j], y[4][j], y[5][j], h / 2);
            double threshold = Math.max(NumericTuning.RELATIVE_JUMP * Math.max(coarse.largest(), fine.largest()), noise);
            boolean here = Math.abs(coarse.leftover()) > threshold && Math.abs(fine.leftover()) > threshold
                    && Math.abs(fine.leftover()) > Math.abs(coarse.leftover()) / 4; // curvature would shrink 8-fold
            kinks[r] = here;
            minus[r] = fine.sMinus();
            plus[r] = fine.sPlus();
            errors[r] = here ? 0 : halfStepError(stencil, y, j, h);
            values[r] = valueAt(stencil, y, j, h);
            wrong |= here && !fine.brackets(analytic[r], threshold);
            kink |= here;
        }
        Kind kind = wrong ? Kind.WRONG_AT_KINK : kink ? Kind.KINK : Kind.SMOOTH;
        return new Probe(kind, kinks, minus, plus, errors, values);
    }

    /**
     * Whether a row's leftover over the half step could pass a kink's threshold: a kink needs both leftovers above
     * a threshold that is at least the larger of the noise floor and the fine slopes' share, so where no row's
     * leftover at h/2 exceeds that, no row is at a kink whatever f(±2h) are, and they are not evaluated.
     */
    private static boolean anyKinkAtHalfStep(double[][] y, int[] flatRows, double h, double noise) {
        for (int j : flatRows) {
            Slopes fine = new Slopes(y[2][j], y[1][j], y[3][j], y[4][j], y[5][j], h / 2);
            if (Math.abs(fine.leftover()) > Math.max(NumericTuning.RELATIVE_JUMP * fine.largest(), noise)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The probe of a line with no kink among its rows, from its points within ±h (a stencil whose value and half
     * step need no more: central, or Richardson, which has neither here): what the full probe gives there.
     */
    private static Probe smooth(double[][] y, int[] flatRows, double h, Stencil stencil) {
        int m = flatRows.length;
        double[] minus = new double[m];
        double[] plus = new double[m];
        double[] errors = new double[m];
        double[] values = new double[m];
        for (int r = 0; r < m; r++) {
            int j = flatRows[r];
            Slopes fine = new Slopes(y[2][j], y[1][j], y[3][j], y[4][j], y[5][j], h / 2);
            minus[r] = fine.sMinus();
            plus[r] = fine.sPlus();
            errors[r] = halfStepError(stencil, y, j, h);
            values[r] = valueAt(stencil, y, j, h);
        }
        return new Probe(Kind.SMOOTH, new boolean[m], minus, plus, errors, values);
    }

    /** The stencil at h from the probe's values (indices into {@link #OFFSETS}). */
    private static double valueAt(Stencil stencil, double[][] y, int j, double h) {
        return switch (stencil) {
            case CENTRAL -> (y[5][j] - y[1][j]) / (2 * h);
            case FIVE_POINT -> (8 * (y[5][j] - y[1][j]) - (y[6][j] - y[0][j])) / (12 * h);
            case RICHARDSON -> Double.NaN; // its value at h needs ±h/4
        };
    }

    /** The stencil at h against the stencil at h/2, from the probe's values (indices into {@link #OFFSETS}). */
    private static double halfStepError(Stencil stencil, double[][] y, int j, double h) {
        return switch (stencil) {
            case CENTRAL -> NumericalError.fromHalfStep(stencil, valueAt(stencil, y, j, h), (y[4][j] - y[2][j]) / h);
            case FIVE_POINT -> NumericalError.fromHalfStep(stencil, valueAt(stencil, y, j, h),
                    (8 * (y[4][j] - y[2][j]) - (y[5][j] - y[1][j])) / (6 * h));
            case RICHARDSON -> 0; // its value at h needs ±h/4, which the probe does not evaluate
        };
    }

    /** One-sided slopes over h and 2h around x, from f(x−h), f(x−2h), f(x), f(x+h), f(x+2h). */
    private record Slopes(double sPlus, double sMinus, double wPlus, double wMinus) {

        Slopes(double minusH, double minus2H, double at, double plusH, double plus2H, double h) {
            this((plusH - at) / h, (at - minusH) / h, (plus2H - at) / (2 * h), (at - minus2H) / (2 * h));
        }

        double leftover() {
            return (wPlus - wMinus) - 2 * (sPlus - sMinus);
        }

        double largest() {
            return Math.max(Math.max(Math.abs(sPlus), Math.abs(sMinus)), Math.max(Math.abs(wPlus), Math.abs(wMinus)));
        }

        /** Whether a lies between the one-sided slopes (a subgradient), with {@code slack} either side. */
        boolean brackets(double a, double slack) {
            return a >= Math.min(sPlus, sMinus) - slack && a <= Math.max(sPlus, sMinus) + slack;
        }
    }
}
