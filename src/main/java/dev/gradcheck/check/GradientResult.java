package dev.gradcheck.check;

/**
 * The comparison of one Jacobian block, d output / d input.
 *
 * @param maxAbsError max |a - n| over the block
 * @param maxRelError max |a - n| / d over the block (Paddle's d: |n|, or 1 where |n| < 1e-3)
 * @param maxScore    max error / allowed error under the spec's rule; above 1 fails
 * @param evaluations forward evaluations spent on the numerical side plus backward passes on the analytic side
 */
public record GradientResult(
        String output,
        String input,
        Verdict verdict,
        double maxAbsError,
        double maxRelError,
        double maxScore,
        WorstElement worst,
        long evaluations,
        double seconds) {}
