package dev.gradcheck.check;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Sampling;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import dev.gradcheck.spec.Tolerance;

/**
 * Compares an analytic Jacobian block with the numerical one, entry by entry, under one tolerance rule. A block
 * whose analytic side is entirely zero while the numerical side is not is a failure whatever the tolerance: a
 * missing backward must never pass (ND4J's own GradCheckUtil lets it). Columns found to sit on a kink are left
 * out: there is no derivative there to compare. A NaN or infinity on either side is its own verdict,
 * {@link Verdict#NON_FINITE}, never a pass (an infinite or NaN forward output shows up here as NaN differences).
 */
final class JacobianComparison {

    /**
     * Finite differences of a function whose true derivative is zero still show rounding noise of about
     * ε·|y|/δ; numerical values below this many times that bound count as zero.
     */
    private static final double NOISE_MARGIN = 64;

    private JacobianComparison() {}

    /** The noise floor of a finite difference with step {@code delta} on outputs of magnitude {@code scale}. */
    static double noiseFloor(double outputScale, double delta) {
        return NOISE_MARGIN * Math.ulp(1.0) * Math.max(1, outputScale) / delta;
    }

    /**
     * @param analytic  the block from the backward, aligned entry for entry with {@code numerical}
     * @param skip      entries (block positions) to leave out, or null
     */
    static Row compare(Jacobian analytic, Jacobian numerical, EntryFilter skip, Tolerance tolerance,
                       double delta, double outputScale) {
        double maxAbs = 0;
        double maxRel = 0;
        double maxScore = Double.NEGATIVE_INFINITY;
        double maxNumerical = -1;
        int largestRow = 0;
        int largestCol = 0;
        boolean analyticAllZero = true;
        int worstRow = 0;
        int worstCol = 0;
        int nonFiniteRow = -1;
        int nonFiniteCol = -1;
        for (int j = 0; j < numerical.rowCount(); j++) {
            for (int i = 0; i < numerical.colCount(); i++) {
                if (skip != null && skip.skips(j, i)) {
                    continue;
                }
                double a = analytic.values()[j][i];
                double n = numerical.values()[j][i];
                double score = tolerance.score(a, n);
                // A NaN score beats everything and is never displaced, so the report shows it.
                if (score > maxScore || (Double.isNaN(score) && !Double.isNaN(maxScore))) {
                    maxScore = score;
                    worstRow = j;
                    worstCol = i;
                }
                maxAbs = Math.max(maxAbs, Double.isNaN(a - n) ? Double.POSITIVE_INFINITY : Math.abs(a - n));
                maxRel = Math.max(maxRel, Tolerance.relativeError(a, n));
                if (Math.abs(n) > maxNumerical) { // where a zero analytic gradient is most plainly wrong
                    maxNumerical = Math.abs(n);
                    largestRow = j;
                    largestCol = i;
                }
                analyticAllZero &= a == 0;
                if (nonFiniteRow < 0 && !(Double.isFinite(a) && Double.isFinite(n))) {
                    nonFiniteRow = j;
                    nonFiniteCol = i;
                }
            }
        }
        boolean empty = maxScore == Double.NEGATIVE_INFINITY;
        Verdict verdict;
        if (empty) {
            maxScore = 0;
            verdict = Verdict.PASS;
        } else if (nonFiniteRow >= 0) {
            verdict = Verdict.NON_FINITE; // never a pass, whatever the tolerance
            worstRow = nonFiniteRow;
            worstCol = nonFiniteCol;
        } else if (analyticAllZero && maxNumerical > noiseFloor(outputScale, delta)) {
            verdict = Verdict.ZERO_GRADIENT;
            worstRow = largestRow;
            worstCol = largestCol;
        } else {
            verdict = maxScore <= 1 ? Verdict.PASS : Verdict.MISMATCH;
        }
        WorstElement worst = empty ? null : new WorstElement(
                Flat.unravel(numerical.row(worstRow), numerical.outputShape()),
                Flat.unravel(numerical.col(worstCol), numerical.inputShape()),
                analytic.values()[worstRow][worstCol], numerical.values()[worstRow][worstCol]);
        return new Row(verdict, maxAbs, maxRel, maxScore, worst);
    }

    /** The figures of one compared block, before they are labelled with what was compared. */
    record Row(Verdict verdict, double maxAbs, double maxRel, double maxScore, WorstElement worst) {

        GradientResult toResult(String output, String input, CheckKind kind, int order, long evaluations,
                                double seconds, String note, Sampling sampling) {
            return new GradientResult(output, input, kind, order, verdict, maxAbs, maxRel, maxScore, worst,
                    evaluations, seconds, note, sampling);
        }
    }
}
