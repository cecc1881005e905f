package dev.gradcheck.check.target;

import dev.gradcheck.check.numeric.Step;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.result.Stencil;
import dev.gradcheck.spec.CheckOptions;
import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.JacobianMask;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.Tolerance;

/**
 * The numerical settings one check runs with, defaults already applied.
 *
 * @param step       the finite-difference step: relative to each element by default, a spec's {@code delta} as is
 * @param tolerance  the spec's tolerance, or null for the default of {@code dtype} ({@link #toleranceFor})
 * @param dtype      the dtype under test (the checked input with the least precision)
 * @param seed       draws the inputs
 * @param sampleSeed draws the element sample and fast mode's directions: the spec's {@code sample_seed}, or
 *                   null to follow {@code seed} (so resampling the inputs draws a new sample too)
 * @param mask       Jacobian entries left out of judging
 * @param capture    which compared blocks hand back their matrices
 */
public record Settings(Step step, Tolerance tolerance, DType dtype, Stencil stencil, Integer maxElements, double nondetTol,
                long seed, Long sampleSeed, JacobianMask mask, JacobianCapture capture, boolean compress,
                int threads) {

    /** The spec's settings; the step defaults for the float64 reference, the tolerance for the dtype under test. */
    public static Settings of(OpSpec spec) {
        return of(spec, JacobianCapture.NONE);
    }

    public static Settings of(OpSpec spec, JacobianCapture capture) {
        Step step = new Step(Defaults.delta(spec), spec.delta() == null);
        CheckOptions o = spec.options();
        return new Settings(step, spec.tolerance(), Defaults.dtypeUnderTest(spec), o.stencil(), o.maxElements(),
                o.nondetTol(), spec.seed(), o.sampleSeed(), o.mask(), capture, o.compress(),
                o.threads() != null ? o.threads() : CheckOptions.defaultThreads(1));
    }

    /** The seed of every sample the check draws (elements, fast-mode directions). */
    public long samplingSeed() {
        return sampleSeed != null ? sampleSeed : seed;
    }

    /** δ: the step itself when absolute, the step per unit of |x| when relative. */
    public double delta() {
        return step.delta();
    }

    /**
     * The rule one block is judged by: the spec's tolerance as written, else the default for the dtype under test,
     * which for low precision is set by the noise the op's own dtype produced ({@link Defaults#tolerance}).
     *
     * @param forwardNoise how far the forward in the dtype under test is from the float64 reference's, relative to
     *                     the output's largest value (0 for float64)
     * @param blockScale   the largest derivative in the block, the scale of its rounding
     */
    public Tolerance toleranceFor(double forwardNoise, double blockScale) {
        return tolerance != null ? tolerance : Defaults.tolerance(dtype, forwardNoise, blockScale);
    }

    /** Whether {@link #toleranceFor} gives one rule whatever the block's scale. */
    public boolean ruleIgnoresScale() {
        return tolerance != null || !Defaults.ruleDependsOnScale(dtype);
    }

    /** The rule of a fast-mode projection: the spec's own, else {@link Defaults#projectionTolerance}. */
    public Tolerance toleranceForProjection(double forwardNoise, double scale) {
        return tolerance != null ? tolerance : Defaults.projectionTolerance(dtype, forwardNoise, scale);
    }

    /** The rule as the report's header shows it. */
    public String describeTolerance() {
        return Defaults.describe(tolerance, dtype);
    }

    /** The same settings for a fresh draw of the inputs. */
    public Settings withSeed(long newSeed) {
        return new Settings(step, tolerance, dtype, stencil, maxElements, nondetTol, newSeed, sampleSeed, mask,
                capture, compress, threads);
    }
}
