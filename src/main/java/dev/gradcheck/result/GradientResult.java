package dev.gradcheck.result;

/**
 * One row of a check: a Jacobian block d output / d input compared one way or another, or a sanity check.
 *
 * @param output      the output's name (for order 2: {@code grad_<input>}, the backward's output); "*" for a sanity
 *                    check that held on every output
 * @param input       the input's name (for order 2 also {@code v_<output>}, the cotangent); "*" likewise
 * @param kind        what was compared
 * @param order       1 for the gradient, 2 for the gradient of the backward
 * @param maxAbsError max |a - n| over the block
 * @param maxRelError max |a - n| / d over the block (Paddle's d: |n|, or 1 where |n| < 1e-3)
 * @param maxScore    max error / allowed error under the spec's rule; above 1 fails
 * @param worst       the entry furthest outside the tolerance; null when the row compares no entries
 * @param evaluations forward evaluations spent on the numerical side plus backward passes on the analytic side
 * @param note        what a reader needs beside the numbers (a fast-mode fallback, kinks found), or null
 * @param sampling    how much of the block was checked, or null when all of it was
 * @param mismatches  for a compared Jacobian block: how many entries disagree and where; null for other rows
 * @param jacobians   the block's two sides, when the run asked for them ({@link JacobianCapture}); else null
 */
public record GradientResult(
        String output,
        String input,
        CheckKind kind,
        int order,
        Verdict verdict,
        double maxAbsError,
        double maxRelError,
        double maxScore,
        WorstElement worst,
        long evaluations,
        double seconds,
        String note,
        Sampling sampling,
        Mismatches mismatches,
        BlockJacobians jacobians) {

    /** A row without a mismatch count or matrices: sanity checks, projections, and rows read from older reports. */
    // the record's components, less trailing ones that default: they are the report's flat fields, which JSON
    // readers rebuild by component name, so grouping them into smaller records would change the schema
    @SuppressWarnings("checkstyle:ParameterNumber")
    public GradientResult(String output, String input, CheckKind kind, int order, Verdict verdict,
                          double maxAbsError, double maxRelError, double maxScore, WorstElement worst,
                          long evaluations, double seconds, String note, Sampling sampling) {
        this(output, input, kind, order, verdict, maxAbsError, maxRelError, maxScore, worst, evaluations, seconds,
                note, sampling, null, null);
    }

    /** The same row with a note added (joined to any note it already has). */
    public GradientResult withNote(String more) {
        String joined = note == null ? more : note + "; " + more;
        return new GradientResult(output, input, kind, order, verdict, maxAbsError, maxRelError, maxScore, worst,
                evaluations, seconds, joined, sampling, mismatches, jacobians);
    }

    /** The same row with its mismatch count and, when the run asked for them, its matrices. */
    public GradientResult withDiagnosis(Mismatches found, BlockJacobians matrices) {
        return new GradientResult(output, input, kind, order, verdict, maxAbsError, maxRelError, maxScore, worst,
                evaluations, seconds, note, sampling, found, matrices);
    }

    /** The same row with {@code more} evaluations (negative: fewer), for calls another step made or counted. */
    public GradientResult withMoreEvaluations(long more) {
        return new GradientResult(output, input, kind, order, verdict, maxAbsError, maxRelError, maxScore, worst,
                evaluations + more, seconds, note, sampling, mismatches, jacobians);
    }

    /** The same row without its matrices (what a report keeps once they are written or drawn). */
    public GradientResult withoutJacobians() {
        return jacobians == null ? this : new GradientResult(output, input, kind, order, verdict, maxAbsError,
                maxRelError, maxScore, worst, evaluations, seconds, note, sampling, mismatches, null);
    }
}
