package dev.gradcheck.check;

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
 * @param seed       draws the inputs
 * @param sampleSeed draws the element sample and fast mode's directions: the spec's {@code sample_seed}, or
 *                   null to follow {@code seed} (so resampling the inputs draws a new sample too)
 * @param mask       Jacobian entries left out of judging
 * @param capture    which compared blocks hand back their matrices
 */
record Settings(double delta, Tolerance tolerance, Stencil stencil, Integer maxElements, double nondetTol,
                long seed, Long sampleSeed, JacobianMask mask, JacobianCapture capture, boolean compress,
                int threads) {

    /** The spec's settings; the step defaults for the float64 reference, the tolerance for the dtype under test. */
    static Settings of(OpSpec spec) {
        return of(spec, JacobianCapture.NONE);
    }

    static Settings of(OpSpec spec, JacobianCapture capture) {
        double delta = spec.delta() != null ? spec.delta() : Defaults.delta(Defaults.REFERENCE);
        Tolerance tolerance = spec.tolerance() != null ? spec.tolerance() : Defaults.tolerance(dtypeUnderTest(spec));
        CheckOptions o = spec.options();
        return new Settings(delta, tolerance, o.stencil(), o.maxElements(), o.nondetTol(), spec.seed(),
                o.sampleSeed(), o.mask(), capture, o.compress(),
                o.threads() != null ? o.threads() : CheckOptions.defaultThreads(1));
    }

    /** The seed of every sample the check draws (elements, fast-mode directions). */
    long samplingSeed() {
        return sampleSeed != null ? sampleSeed : seed;
    }

    /** The checked input with the least precision: it decides the default tolerance, and the report's dtype. */
    static DType dtypeUnderTest(OpSpec spec) {
        DType lowest = DType.FLOAT64;
        for (String name : spec.check()) {
            DType d = spec.input(name).dtype();
            if (d.ordinal() > lowest.ordinal()) {
                lowest = d;
            }
        }
        return lowest;
    }

    /** The same settings for a fresh draw of the inputs. */
    Settings withSeed(long newSeed) {
        return new Settings(delta, tolerance, stencil, maxElements, nondetTol, newSeed, sampleSeed, mask, capture,
                compress, threads);
    }
}
