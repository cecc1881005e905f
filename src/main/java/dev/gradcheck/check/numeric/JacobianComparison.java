package dev.gradcheck.check.numeric;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Sampling;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import dev.gradcheck.spec.Tolerance;

/**
 * Compares an analytic Jacobian block with the numerical one, entry by entry: the one comparison of the project.
 * Each entry is judged by {@link #score}: it is a mismatch only when it is off by more than the tolerance allows
 * <em>and</em> by more than the numerical side can resolve ({@link NumericalError}). A block whose analytic side is
 * entirely zero while the numerical side is not is a failure whatever the tolerance: a missing backward must never
 * pass (ND4J's own GradCheckUtil lets it). Columns found to sit on a kink are left out: there is no derivative
 * there to compare. A NaN or infinity on either side is its own verdict, {@link Verdict#NON_FINITE}, never a pass
 * (an infinite or NaN forward output shows up here as NaN differences).
 */
public final class JacobianComparison {

    private JacobianComparison() {}

    /** The noise floor of a finite difference with step {@code delta} on outputs of magnitude {@code scale}. */
    public static double noiseFloor(double outputScale, double delta) {
        return NumericTuning.NOISE_MARGIN * Precision.FLOAT64 * Math.max(1, outputScale) / delta;
    }

    /**
     * The judgement of one entry: how far outside what is allowed it lies, {@code <= 1} passes. The larger of the
     * two allowances counts: the tolerance's ({@link Tolerance#score}), and the numerical side's own error bound
     * (an entry within that bound of the numerical value cannot be told from it). A NaN never passes.
     *
     * @param numericalError a bound on |numerical − true derivative|, 0 when there is none
     */
    public static double score(Tolerance tolerance, double analytic, double numerical, double numericalError) {
        return score(tolerance.score(analytic, numerical), analytic, numerical, numericalError);
    }

    /** {@link #score(Tolerance, double, double, double)} from the tolerance's own score, where it is known. */
    private static double score(double byTolerance, double analytic, double numerical, double numericalError) {
        if (!(byTolerance > 1) || !(numericalError > 0) || Double.isInfinite(numericalError)) {
            return byTolerance;
        }
        double err = Math.abs(analytic - numerical);
        return Double.isNaN(err) ? byTolerance : Math.min(byTolerance, err / numericalError);
    }

    /**
     * What the entries of a block are judged by: the tolerance, and the noise floor that a zero analytic block's
     * numerical side must stay under ({@link #noiseFloor}, from the step δ and the output's scale).
     *
     * @param outputScale the largest |y| of the block's output
     */
    public record Criteria(Tolerance tolerance, double delta, double outputScale) {

        public double noiseFloor() {
            return JacobianComparison.noiseFloor(outputScale, delta);
        }
    }

    /**
     * @param analytic  the block from the backward, aligned entry for entry with {@code numerical}
     * @param errors    what the numerical side can resolve, per entry
     * @param skip      entries (block positions) to leave out: those at a kink, those the spec's mask names
     */
    public static Row compare(Jacobian analytic, Jacobian numerical, NumericalError errors, EntryFilter skip,
                       Criteria criteria) {
        Tally acc = new Tally(criteria.tolerance());
        for (int j = 0; j < numerical.rowCount(); j++) {
            for (int i = 0; i < numerical.colCount(); i++) {
                if (!skip.skips(j, i)) {
                    acc.add(numerical.row(j), numerical.col(i), analytic.values()[j][i],
                            numerical.values()[j][i], errors.at(j, i));
                }
            }
        }
        return acc.row(numerical.outputShape(), numerical.inputShape(), criteria);
    }

    /**
     * The same comparison over a block given as its entries (a compressed check's), each with its numerical
     * side's error bound: every entry not listed is zero on both sides, which scores 0 and changes none of the
     * figures, so the row is the one the dense block gives with the same values.
     */
    public static Row compare(SparseBlock block, Criteria criteria) {
        return compare(sink -> {
            for (int k = 0; k < block.size(); k++) {
                sink.add(block.row(k), block.col(k), block.analytic(k), block.numerical(k), block.error(k));
            }
        }, block.outputShape(), block.inputShape(), criteria);
    }

    /** Takes a block's entries one at a time, in row-major order. */
    @FunctionalInterface
    public interface EntrySink {
        void add(int row, int col, double analytic, double numerical, double error);
    }

    /** A block's entries, fed in row-major order to whoever judges them, not held as a list. */
    @FunctionalInterface
    public interface EntrySource {
        void feed(EntrySink sink);
    }

    /**
     * The same comparison over entries fed in row-major order (the (0, 0) entry first, as {@link SparseBlock} lists
     * it), each with its numerical side's error bound; entries not fed are zero on both sides.
     */
    public static Row compare(EntrySource entries, long[] outputShape, long[] inputShape, Criteria criteria) {
        Tally acc = new Tally(criteria.tolerance());
        entries.feed(acc::add);
        return acc.row(outputShape, inputShape, criteria);
    }

    /**
     * The figures of a block, entry by entry, in any order: of equal scores (equal |numerical|, several non-finite
     * entries) the first in row-major order is the one a report names, whatever order the entries came in, so a
     * block fed row by row and one fed as a compressed check's column pass judges them are the same row.
     */
    public static final class Tally {
        private final Tolerance tolerance;
        private double maxAbs;
        private double maxRel;
        private double maxScore = Double.NEGATIVE_INFINITY;
        private double maxNumerical = -1;
        private boolean analyticAllZero = true;
        private int withinError;
        private double largestError;
        private long failing;
        private int worstRow;
        private int worstCol;
        private double worstA;
        private double worstN;
        private int largestRow;
        private int largestCol;
        private double largestA;
        private double largestN;
        private int nonFiniteRow = -1;
        private int nonFiniteCol;
        private double nonFiniteA;
        private double nonFiniteN;

        public Tally(Tolerance tolerance) {
            this.tolerance = tolerance;
        }

        /** The entries that do not pass (a score above 1, or NaN). */
        public long failing() {
            return failing;
        }

        private static boolean before(int row, int col, int r, int c) {
            return row < r || (row == r && col < c);
        }

        /** One entry at flat output index {@code row}, flat input index {@code col}, its numerical error bound. */
        public void add(int row, int col, double a, double n, double error) {
            double byTolerance = tolerance.score(a, n);
            double score = score(byTolerance, a, n, error);
            if (score <= 1 && byTolerance > 1) { // passed on the numerical side's error alone
                withinError++;
                largestError = Math.max(largestError, error);
            }
            failing += score <= 1 ? 0 : 1;
            worst(row, col, a, n, score);
            maxAbs = Math.max(maxAbs, Double.isNaN(a - n) ? Double.POSITIVE_INFINITY : Math.abs(a - n));
            maxRel = Math.max(maxRel, Tolerance.relativeError(a, n));
            largest(row, col, a, n);
            analyticAllZero &= a == 0;
            if (!(Double.isFinite(a) && Double.isFinite(n))
                    && (nonFiniteRow < 0 || before(row, col, nonFiniteRow, nonFiniteCol))) {
                nonFiniteRow = row;
                nonFiniteCol = col;
                nonFiniteA = a;
                nonFiniteN = n;
            }
        }

        /**
         * Takes in another tally's entries, as if each had been added here: every figure is a maximum with a
         * row-major tie-break, a count or a conjunction, so the result does not depend on the order of the entries
         * nor on how they were split between tallies (a block judged a group at a time, one group judged again).
         */
        public void merge(Tally other) {
            if (other.maxScore != Double.NEGATIVE_INFINITY) { // NaN too: it was added
                worst(other.worstRow, other.worstCol, other.worstA, other.worstN, other.maxScore);
            }
            if (other.maxNumerical >= 0) {
                largest(other.largestRow, other.largestCol, other.largestA, other.largestN);
            }
            if (other.nonFiniteRow >= 0 && (nonFiniteRow < 0
                    || before(other.nonFiniteRow, other.nonFiniteCol, nonFiniteRow, nonFiniteCol))) {
                nonFiniteRow = other.nonFiniteRow;
                nonFiniteCol = other.nonFiniteCol;
                nonFiniteA = other.nonFiniteA;
                nonFiniteN = other.nonFiniteN;
            }
            maxAbs = Math.max(maxAbs, other.maxAbs);
            maxRel = Math.max(maxRel, other.maxRel);
            analyticAllZero &= other.analyticAllZero;
            withinError += other.withinError;
            largestError = Math.max(largestError, other.largestError);
            failing += other.failing;
        }

        /** The worst score so far: a NaN beats everything and is displaced only by an earlier NaN. */
        private void worst(int row, int col, double a, double n, double score) {
            boolean nan = Double.isNaN(score);
            boolean tie = nan ? Double.isNaN(maxScore) : score == maxScore;
            if (score > maxScore || (nan && !Double.isNaN(maxScore)) || (tie && before(row, col, worstRow, worstCol))) {
                maxScore = score;
                worstRow = row;
                worstCol = col;
                worstA = a;
                worstN = n;
            }
        }

        /** The largest |numerical| so far: where a zero analytic gradient is most plainly wrong. */
        private void largest(int row, int col, double a, double n) {
            double m = Math.abs(n);
            if (m > maxNumerical || (m == maxNumerical && before(row, col, largestRow, largestCol))) {
                maxNumerical = m;
                largestRow = row;
                largestCol = col;
                largestA = a;
                largestN = n;
            }
        }

        public Row row(long[] outputShape, long[] inputShape, Criteria criteria) {
            if (maxScore == Double.NEGATIVE_INFINITY) { // no entry compared
                return new Row(Verdict.PASS, maxAbs, maxRel, 0, null, 0, 0);
            }
            Verdict verdict;
            int r = worstRow;
            int c = worstCol;
            double a = worstA;
            double n = worstN;
            if (nonFiniteRow >= 0) {
                verdict = Verdict.NON_FINITE; // never a pass, whatever the tolerance
                r = nonFiniteRow;
                c = nonFiniteCol;
                a = nonFiniteA;
                n = nonFiniteN;
            } else if (analyticAllZero && maxNumerical > criteria.noiseFloor()) {
                verdict = Verdict.ZERO_GRADIENT;
                r = largestRow;
                c = largestCol;
                a = largestA;
                n = largestN;
            } else {
                verdict = maxScore <= 1 ? Verdict.PASS : Verdict.MISMATCH;
            }
            WorstElement worst = new WorstElement(Flat.unravel(r, outputShape), Flat.unravel(c, inputShape), a, n);
            return new Row(verdict, maxAbs, maxRel, maxScore, worst, withinError, largestError);
        }
    }

    /**
     * What a row compared: block d output / d input, the way it was compared, and the order.
     */
    public record Compared(String output, String input, CheckKind kind, int order) {}

    /**
     * The figures of one compared block, before they are labelled with what was compared.
     *
     * @param withinError  entries beyond the tolerance but within the numerical side's own error
     * @param largestError the largest such error bound
     */
    public record Row(Verdict verdict, double maxAbs, double maxRel, double maxScore, WorstElement worst, int withinError,
               double largestError) {

        public Row withVerdict(Verdict v) {
            return new Row(v, maxAbs, maxRel, maxScore, worst, withinError, largestError);
        }

        /** What a reader should know about entries that passed on the numerical side's error, or null. */
        public String errorNote() {
            return withinError == 0 ? null : withinError + (withinError == 1 ? " entry differs" : " entries differ")
                    + " by more than the tolerance but less than the finite differences' own error (up to "
                    + String.format(java.util.Locale.ROOT, "%.1e", largestError) + "), so "
                    + (withinError == 1 ? "it is" : "they are") + " not counted as a mismatch";
        }

        public GradientResult toResult(Compared compared, long evaluations, double seconds, String note,
                                Sampling sampling) {
            // a pass that left entries within the finite differences' own error did not resolve them: said so
            Verdict reported = verdict == Verdict.PASS && withinError > 0 ? Verdict.UNRESOLVABLE : verdict;
            return new GradientResult(compared.output(), compared.input(), compared.kind(), compared.order(),
                    reported, maxAbs, maxRel, maxScore, worst, evaluations, seconds, note, sampling);
        }
    }
}
