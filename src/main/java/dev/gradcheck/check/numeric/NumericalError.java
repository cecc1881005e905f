package dev.gradcheck.check.numeric;

import dev.gradcheck.result.Stencil;
import it.unimi.dsi.fastutil.longs.Long2DoubleOpenHashMap;
import java.util.BitSet;

/**
 * What the numerical side can resolve: a bound on |numerical − true derivative| for each entry of a block, by its
 * position in the block. {@link JacobianComparison} counts an entry as a mismatch only when it is off by more than
 * the tolerance <em>and</em> by more than this bound: a difference the finite differences cannot see is no
 * evidence against the backward.
 *
 * <p>Two sources, both documented with their numbers in docs/checking.md:
 * <ul>
 *   <li><b>rounding</b>, for every entry: the forward's outputs carry rounding of about ε·|y|, which the stencil
 *       divides by the step: {@link #rounding} = {@value #ROUNDING_MARGIN}·gain·ε·|y_j|/h_i (gain 1 for central
 *       differences). Measured on conv3d on [0, 10], std over normal(0, 100) and reduce_sum of values near 5000,
 *       the real error was 0.15 to 2.5 times ε·|y|/h: the margin covers that;</li>
 *   <li><b>truncation</b> (and rounding the first bound misses, such as cancellation inside the forward), for the
 *       entries that disagree: the same stencil at the half step, from the evaluations the kink probe makes anyway,
 *       gives D(h) − D(h/2) ≈ (1 − 2^−p)·(error of D(h)) for a stencil of order p; {@link #fromHalfStep} turns
 *       that into a bound with a margin of {@value #HALF_STEP_MARGIN}.</li>
 * </ul>
 * A compressed Jacobian (whose entries come out of group differences divided by a weight) supplies its own
 * bound per entry through this interface. A bound only: where an entry is taken again at a more precise step
 * ({@link MostPreciseStep}), its bound there is recorded here, and its value where the block's values are kept
 * (the dense judge's judged block, the two-sided run's entry values).
 */
public interface NumericalError {

    /** The machine epsilon of float64, in which every numerical reference is evaluated. */
    double EPSILON = Precision.FLOAT64;

    /** The rounding bound is this many times the plain ε·|y|/h. */
    double ROUNDING_MARGIN = 4;

    /** The half-step estimate of the truncation error is widened by this much. */
    double HALF_STEP_MARGIN = 1.25;

    /**
     * A projection vᵀρ of roundings ρ onto fast mode's random v stays within this many times ‖v∘ρ‖₂ except with
     * probability 2·e^(−18) = 3e-8: v's signs are independent of ρ (the rounding of outputs at x ± t·u, which v
     * does not enter), and Hoeffding's inequality over them bounds the sum of ±|vⱼ·ρⱼ| by x·‖v∘ρ‖₂ but for
     * 2·e^(−x²/2). The L1 worst case Σ|vⱼ·ρⱼ| is about 0.8·√n times ‖v∘ρ‖₂ over n outputs.
     */
    double SIGNS_MARGIN = 6;

    /**
     * A central difference of φ whose evaluations carry independent noise of standard deviation σ errs by σ/(√2·h)
     * in standard deviation; the bound is this many times gain·σ/h (8.5 standard deviations for central
     * differences, if σ were known). {@link LineNoise}'s estimate from 17 points is itself spread (median 0.92·σ,
     * 1% of draws below 0.35·σ): a right derivative exceeds the bound with probability 2e-4 (simulated over 200,000
     * draws of Gaussian noise; 3e-5 at a margin of 8), before the more precise step judges it again.
     */
    double NOISE_MARGIN = 6;

    /** No bound at all: the tolerance alone decides (a reference with no model of its own error). */
    NumericalError NONE = (row, col) -> 0;

    /** The bound for the entry at these positions of the block. */
    double at(int row, int col);

    /**
     * An entry's position in a block as one key for a hashed map or set, one to one. Not the plain row·2³² + col:
     * Long's hash folds the halves together (row ^ col), so the entries of a block's diagonal bands all land in a
     * few buckets, and a map of a million precise-step values took 95% of a layer_norm check in lookups. The
     * multiplication by an odd constant is one to one and spreads every bit over the hash. A key, not a position:
     * a set that reads the column back out of its keys (the dense judge's kinks) keeps the plain form.
     */
    static long entryKey(int row, int col) {
        return (((long) row << 32) | (col & 0xFFFFFFFFL)) * 0x9E3779B97F4A7C15L;
    }

    /** The rounding bound of one derivative of an output of magnitude |y| taken with step h. */
    public static double rounding(Stencil stencil, double outputMagnitude, double step) {
        return ROUNDING_MARGIN * FiniteDifferences.gain(stencil) * EPSILON * Math.abs(outputMagnitude) / step;
    }

    /**
     * The rounding bound of one derivative taken with step h from evaluations whose measured noise has standard
     * deviation σ ({@link LineNoise}): {@value #NOISE_MARGIN}·gain·σ/h.
     */
    public static double fromNoise(Stencil stencil, double sigma, double step) {
        return NOISE_MARGIN * FiniteDifferences.gain(stencil) * sigma / step;
    }

    /**
     * The magnitude whose rounding a projection vᵀy carries ({@link #SIGNS_MARGIN}): the rounding of each yⱼ is
     * at most about ε·|yⱼ|, so |vᵀρ| ≤ {@value #SIGNS_MARGIN}·ε·‖v∘y‖₂ with probability 1 − 3e-8.
     */
    static double projected(double[] v, double[] y) {
        double sum = 0;
        for (int j = 0; j < v.length; j++) {
            sum += v[j] * y[j] * v[j] * y[j];
        }
        return SIGNS_MARGIN * Math.sqrt(sum);
    }

    /**
     * The error of the stencil's value at step h, from its value at h/2: for a stencil of order p,
     * D(h) − true ≈ (D(h) − D(h/2))·2^p/(2^p − 1); widened by {@value #HALF_STEP_MARGIN}.
     */
    static double fromHalfStep(Stencil stencil, double atStep, double atHalfStep) {
        double twoP = Math.pow(2, FiniteDifferences.order(stencil));
        return HALF_STEP_MARGIN * twoP / (twoP - 1) * Math.abs(atStep - atHalfStep);
    }

    /**
     * The rounding bound of every entry of a block, from the magnitudes of its rows' outputs and its columns'
     * steps, and a measured bound where one has been taken ({@link Block#measured}).
     */
    static Block block(Stencil stencil, double[] rowMagnitudes, double[] colSteps) {
        return new Block(stencil, rowMagnitudes, colSteps);
    }

    /**
     * The bounds of one block: rounding everywhere, the larger of that and a measured bound where there is one, and
     * the bound at a more precise step where an entry was taken again there (which replaces both).
     */
    final class Block implements NumericalError {
        private final Stencil stencil;
        private final double[] rowMagnitudes;
        private final double[] colSteps;
        /** What the maps give for an entry they do not hold: no bound is negative. */
        private static final double ABSENT = -1;
        private final Long2DoubleOpenHashMap measured = absentIsNegative();
        private final Long2DoubleOpenHashMap atPreciseStep = absentIsNegative();
        /** The rows with an entry in either map: the other rows' bounds are the rounding model's, no lookup. */
        private final BitSet rowsWithEntries = new BitSet();

        private Block(Stencil stencil, double[] rowMagnitudes, double[] colSteps) {
            this.stencil = stencil;
            this.rowMagnitudes = rowMagnitudes;
            this.colSteps = colSteps;
        }

        @Override
        public double at(int row, int col) {
            if (!rowsWithEntries.get(row)) {
                return rounding(row, col); // the common case, without a lookup (nor a boxed key)
            }
            double precise = atPreciseStep.get(entryKey(row, col));
            if (precise != ABSENT) {
                return precise;
            }
            double rounding = rounding(row, col);
            double m = measured.get(entryKey(row, col));
            return m == ABSENT ? rounding : Math.max(rounding, m);
        }

        private static Long2DoubleOpenHashMap absentIsNegative() {
            Long2DoubleOpenHashMap map = new Long2DoubleOpenHashMap();
            map.defaultReturnValue(ABSENT);
            return map;
        }

        /** The rounding model's bound for the entry, at the block's own step. */
        public double rounding(int row, int col) {
            return NumericalError.rounding(stencil, rowMagnitudes[row], colSteps[col]);
        }

        /** The same bounds, measured and more precise ones included, to measure more on without changing these. */
        public Block copy() {
            Block c = new Block(stencil, rowMagnitudes, colSteps);
            c.measured.putAll(measured);
            c.atPreciseStep.putAll(atPreciseStep);
            c.rowsWithEntries.or(rowsWithEntries);
            return c;
        }

        /** Records an entry taken again at a more precise step: its bound there replaces this block's. */
        public void atPreciseStep(int row, int col, double bound) {
            atPreciseStep.put(entryKey(row, col), bound);
            rowsWithEntries.set(row);
        }

        /** Records a measured bound for one entry (from a second step). */
        public void measured(int row, int col, double bound) {
            long key = entryKey(row, col);
            double before = measured.get(key);
            measured.put(key, before == ABSENT ? bound : Math.max(before, bound));
            rowsWithEntries.set(row);
        }

    }
}
