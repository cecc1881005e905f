package dev.gradcheck.check.fast;

/**
 * The tuning constants of fast mode, in one place: each is a choice of cost or reach, not a law, named and documented
 * here under the class that reads it.
 */
public final class FastTuning {

    private FastTuning() {
    }

    // read by FastProbe
    /** At most this many kink elements are isolated. */
    static final int MOST_KINKS = 16;

    /** At most this many probes are spent isolating them. */
    static final int MOST_PROBES = 256;

    /** The 5% quantile of |z₁·z₂| for independent standard normals (measured over 2·10⁷ draws). */
    static final double SINGLE_ENTRY_QUANTILE = 0.0147;
}
