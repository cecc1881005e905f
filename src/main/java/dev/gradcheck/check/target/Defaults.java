package dev.gradcheck.check.target;

import dev.gradcheck.check.Unfinished;
import dev.gradcheck.check.numeric.Precision;
import dev.gradcheck.check.numeric.Step;
import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.Tolerance;
import java.util.Locale;

/**
 * Defaults for the finite-difference step and the tolerance, used when a spec gives none. The numerical reference
 * is always float64, so the tolerance budgets the analytic side's own rounding. For float64 that is a fixed
 * 1e-6 (Paddle's rule). For the narrow dtypes it is judged against the noise the op's own dtype produces, measured
 * on the spot: the forward in the dtype under test against the float64 forward at the same (rounded) inputs. A
 * fixed float32 tolerance cannot both let a correct layer norm on near-constant rows through (it reaches 2e-4) and
 * catch a backward 0.1% off (an error of exactly the old default, 1e-3).
 */
public final class Defaults {

    /** float32: an entry may always be off by this many units of its dtype's ε, relative to itself. */
    static final double FLOAT32_RELATIVE_ULPS = 256;

    /** float32: and by this many ε at the block's scale (its largest derivative, at most 1), absolutely. */
    static final double FLOAT32_ABSOLUTE_ULPS = 16;

    /** Every narrow dtype: an entry may be off by this many times the forward's measured relative noise. */
    static final double NOISE_FACTOR = 8;

    /** However noisy the op's own dtype, no default allows more than this relative error. */
    static final double MOST_RELATIVE = 1e-1;

    private Defaults() {}

    /**
     * The step for finite differences evaluated in {@code evaluatedIn}: about ∛ε of that dtype, where the
     * truncation error δ²·f‴ and the rounding error ε·|f|/δ of central differences balance. By default it is taken
     * relative to each element, δ·max(1, |xᵢ|) ({@link Step}).
     */
    public static double delta(DType evaluatedIn) {
        return switch (evaluatedIn) {
            case FLOAT64 -> 1e-6;
            case FLOAT32 -> 1e-3;
            default -> 1e-2;
        };
    }

    /** The dtype every numerical reference is evaluated in. */
    public static final DType REFERENCE = DType.FLOAT64;

    /** The unit roundoff of a floating dtype (2^-52, 2^-23, 2^-10, 2^-7). */
    public static double epsilon(DType dtype) {
        return Precision.epsilon(dtype.isFloating() ? dtype : REFERENCE);
    }

    /**
     * The default rule for one block of an op whose dtype under test is {@code dtype}.
     * <ul>
     *   <li>float64: Paddle's rule, max_relative_error 1e-6 (measured worst of the suite's passing specs: 5.5e-8);</li>
     *   <li>float32: allclose with rtol = max(256·ε, 8·ν) and atol = max(16·ε·min(1, blockScale), 8·ν·blockScale),
     *       ν the forward's measured excess noise ({@link CheckTarget#forwardNoise}). 256·ε (3.05e-5) covers the
     *       backward's own rounding (measured worst of correct ops: 1.2e-5, layer norm on [−2, 2]); 16·ε (1.9e-6)
     *       covers cancellation such as tanh's 1 − t², whose error is ε-sized where the entry is small (1.4e-7 at
     *       entries of 1e-3, tanh on [−6, 6]); ν covers ops whose float32 arithmetic is ill-conditioned at this
     *       point (layer norm on near-constant rows, where x − mean cancels), at the scale of the block;</li>
     *   <li>float16, bfloat16: Paddle's rule at max(5e-2 resp. 1e-1, 8·ν): the old defaults, widened where the op's
     *       own noise asks for it.</li>
     * </ul>
     * The measured part is capped at {@value #MOST_RELATIVE}.
     *
     * @param forwardNoise ν, the forward's noise beyond rounding, relative to the output's largest value
     * @param blockScale   the largest |derivative| in the block
     */
    public static Tolerance tolerance(DType dtype, double forwardNoise, double blockScale) {
        // ruleDependsOnScale says where blockScale is read: keep the two together
        double measured = Double.isNaN(forwardNoise) ? MOST_RELATIVE
                : Math.min(MOST_RELATIVE, NOISE_FACTOR * forwardNoise);
        return switch (dtype) {
            case FLOAT32 -> new Tolerance.AllClose(
                    Math.max(FLOAT32_ABSOLUTE_ULPS * epsilon(dtype) * Math.min(1, blockScale), measured * blockScale),
                    Math.max(FLOAT32_RELATIVE_ULPS * epsilon(dtype), measured));
            case FLOAT16 -> new Tolerance.MaxRelative(Math.max(5e-2, measured));
            case BFLOAT16 -> new Tolerance.MaxRelative(1e-1);
            default -> new Tolerance.MaxRelative(1e-6);
        };
    }

    /**
     * Whether {@link #tolerance}'s rule for this dtype reads its block's scale (float32's absolute part): where it
     * does not, a block's entries can be judged as they are computed, before the block's scale is known.
     */
    public static boolean ruleDependsOnScale(DType dtype) {
        return dtype == DType.FLOAT32;
    }

    /**
     * The default rule for a fast-mode projection vᵀJu whose terms (vᵀJ)ᵢ·uᵢ have the root sum of squares
     * {@code scale}: the dtype's rule ({@link #tolerance}), with Paddle's fixed floor (d = 1 below |n| = 1e-3)
     * replaced by that scale ({@link Tolerance.ScaledRelative}). An entry-wise relative error r moves the
     * projection by about r·scale, so this allows what the entry-wise rule allows, at any size; the fixed floor
     * let a projection of 1e-6 be off by 100%.
     */
    static Tolerance projectionTolerance(DType dtype, double forwardNoise, double scale) {
        Tolerance entryWise = tolerance(dtype, forwardNoise, scale);
        return entryWise instanceof Tolerance.MaxRelative paddle
                ? new Tolerance.ScaledRelative(paddle.maxRelativeError(), scale) : entryWise;
    }

    /**
     * The step a spec's check takes (before it is made relative, {@link Step}): its own {@code delta}, else the
     * default for the float64 reference. Here, not in {@link Settings}, because a check that never ran reports it
     * too ({@link Unfinished}), from a front end that holds no arrays.
     */
    public static double delta(OpSpec spec) {
        return spec.delta() != null ? spec.delta() : delta(REFERENCE);
    }

    /** The checked input with the least precision: it decides the default tolerance, and the report's dtype. */
    public static DType dtypeUnderTest(OpSpec spec) {
        DType lowest = DType.FLOAT64;
        for (String name : spec.check()) {
            DType d = spec.input(name).dtype();
            if (d.ordinal() > lowest.ordinal()) {
                lowest = d;
            }
        }
        return lowest;
    }

    /** The rule a check is judged by, as the report's header shows it: the spec's own, else the default. */
    public static String describe(Tolerance given, DType dtype) {
        return given != null ? given.describe() : describe(dtype);
    }

    /** The default rule for {@code dtype} as the report's header shows it. */
    public static String describe(DType dtype) {
        return switch (dtype) {
            case FLOAT32 -> String.format(Locale.ROOT, "float32 default: rtol=max(%.2e, %dv), atol=max(%.2e*min(1,"
                            + " G), %dv*G) (v: measured forward noise, G: largest derivative)",
                    FLOAT32_RELATIVE_ULPS * epsilon(dtype), (int) NOISE_FACTOR, FLOAT32_ABSOLUTE_ULPS * epsilon(dtype),
                    (int) NOISE_FACTOR);
            case FLOAT16 -> "max_relative_error=max(0.05, " + (int) NOISE_FACTOR + " x measured forward noise)";
            case BFLOAT16 -> "max_relative_error=0.1";
            default -> new Tolerance.MaxRelative(1e-6).describe();
        };
    }
}
