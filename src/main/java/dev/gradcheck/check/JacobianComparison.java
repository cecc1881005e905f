package dev.gradcheck.check;

import dev.gradcheck.spec.Tolerance;

/**
 * Compares an analytic Jacobian block with the numerical one, element by element, under one tolerance rule.
 * A block whose analytic side is entirely zero while the numerical side is not is a failure whatever the
 * tolerance: a missing backward must never pass (ND4J's own GradCheckUtil lets it). A NaN or infinity on either
 * side, or in the forward output, is its own verdict ({@link Verdict#NON_FINITE}), never a pass.
 */
final class JacobianComparison {

    /**
     * Finite differences of a function whose true derivative is zero still show rounding noise of about
     * ε·|y|/δ; numerical values below this many times that bound count as zero.
     */
    private static final double NOISE_MARGIN = 64;

    private JacobianComparison() {}

    static GradientResult compare(String output, String input, Jacobian analytic, Jacobian numerical,
                                  Tolerance tolerance, double delta, double outputScale, long evaluations,
                                  double seconds) {
        return compare(output, input, analytic, numerical, tolerance, delta, outputScale, true, evaluations, seconds);
    }

    /** @param outputFinite false when the forward output itself holds a NaN or infinity: the block cannot pass */
    static GradientResult compare(String output, String input, Jacobian analytic, Jacobian numerical,
                                  Tolerance tolerance, double delta, double outputScale, boolean outputFinite,
                                  long evaluations, double seconds) {
        double maxAbs = 0;
        double maxRel = 0;
        double maxScore = Double.NEGATIVE_INFINITY;
        double maxNumerical = -1;
        int largestRow = 0;
        int largestCol = 0;
        boolean analyticAllZero = true;
        boolean allFinite = outputFinite;
        int firstNonFiniteRow = -1;
        int firstNonFiniteCol = -1;
        int worstRow = 0;
        int worstCol = 0;
        for (int j = 0; j < numerical.rows(); j++) {
            for (int i = 0; i < numerical.cols(); i++) {
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
                if (firstNonFiniteRow < 0 && !(Double.isFinite(a) && Double.isFinite(n))) {
                    allFinite = false;
                    firstNonFiniteRow = j;
                    firstNonFiniteCol = i;
                }
            }
        }
        if (maxScore == Double.NEGATIVE_INFINITY) {
            maxScore = 0; // an empty block
        }
        Verdict verdict;
        double noiseFloor = NOISE_MARGIN * Math.ulp(1.0) * Math.max(1, outputScale) / delta;
        if (!allFinite) {
            verdict = Verdict.NON_FINITE;
            if (firstNonFiniteRow >= 0) {
                worstRow = firstNonFiniteRow;
                worstCol = firstNonFiniteCol;
            }
        } else if (analyticAllZero && maxNumerical > noiseFloor) {
            verdict = Verdict.ZERO_GRADIENT;
            worstRow = largestRow;
            worstCol = largestCol;
        } else {
            verdict = maxScore <= 1 ? Verdict.PASS : Verdict.MISMATCH;
        }
        WorstElement worst = numerical.rows() == 0 || numerical.cols() == 0 ? null : new WorstElement(
                Flat.unravel(worstRow, numerical.outputShape()), Flat.unravel(worstCol, numerical.inputShape()),
                analytic.values()[worstRow][worstCol], numerical.values()[worstRow][worstCol]);
        return new GradientResult(output, input, verdict, maxAbs, maxRel, maxScore, worst, evaluations, seconds);
    }
}
