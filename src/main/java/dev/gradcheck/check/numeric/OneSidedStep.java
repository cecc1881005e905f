package dev.gradcheck.check.numeric;

import dev.gradcheck.result.Stencil;

/**
 * A line along an input the forward is declared affine in (a convolution's, a matrix product's: op/catalog's
 * AffineInputs), its rows' values at h at hand: along it a difference has no truncation error, so one forward at
 * x + S, S = {@value MostPreciseStep#COARSE_RUNG}·h, and the output at x (held, not evaluated) give each row's
 * derivative with a rounding-only bound a hundredth of h's twice over (a one-sided difference carries both values'
 * rounding over S, where h's central one carries them over 2·h). Where the rounding of h left a row near the
 * tolerance, this bound settles it with one forward where the ladder ({@link CoarseFirst}, {@link MostPreciseStep})
 * takes four.
 *
 * <p>The declaration is the op's definition; the data still guard it: every row's value at S must agree with its
 * value at h within both bounds (h's least allowance: its rounding model or the output's rounding floor, the larger),
 * as they must where the forward is affine. Where any row disagrees, the line is not settled here and goes on to the
 * ladder, whose coarse rung reuses the forward at x + S.
 */
public final class OneSidedStep {

    /** A one-sided difference's rounding over a central one's at the same step: both values over S, not 2·S. */
    private static final double ONE_SIDED_GAIN = 2;

    private OneSidedStep() {}

    /**
     * Each row's estimate by the one-sided difference at S, or null where a row's disagrees with its value at h.
     *
     * @param line        the line's rows at x + t·u; at t = 0 the outputs at x, unevaluated
     * @param h           the line's step
     * @param valueAtH    each row's central difference at h
     * @param roundingAtH each row's rounding model at h
     * @param outputScale the output's largest |y|, which sets the rounding floor
     * @param stencil     the stencil h's values were taken with (its rounding model's gain)
     */
    public static MostPreciseStep.Estimate[] settled(KinkDetector.Line line, double h, double[] valueAtH,
                                                     double[] roundingAtH, double outputScale, Stencil stencil) {
        double s = MostPreciseStep.COARSE_RUNG * h;
        double[] atX = line.at(0);
        double[] atS = line.at(s);
        // the largest element's rounding: a convolution's sum rounds by its terms' size, which |y| can understate
        double floor = NumericalError.rounding(stencil, outputScale, h);
        MostPreciseStep.Estimate[] at = new MostPreciseStep.Estimate[valueAtH.length];
        for (int r = 0; r < at.length; r++) {
            double allowance = Math.max(roundingAtH[r], floor);
            double bound = ONE_SIDED_GAIN * allowance / MostPreciseStep.COARSE_RUNG;
            at[r] = new MostPreciseStep.Estimate((atS[r] - atX[r]) / s, bound, bound, s);
            if (!(Double.isFinite(at[r].value()) && MostPreciseStep.consistent(at[r], valueAtH[r], allowance))) {
                return null;
            }
        }
        return at;
    }
}
