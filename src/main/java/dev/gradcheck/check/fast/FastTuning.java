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

    // read by FastCheck and EntryNarrowing
    /**
     * A failing input whose full recheck would cost more than this many evaluations (the cheaper of 2n forwards and
     * m backward passes, uncompressed) is narrowed to its entries instead; up to this, it is rechecked in full.
     */
    static final long RECHECK_IN_FULL_UP_TO = 4096;

    /** At most this many wrong entries are named by narrowing a failing projection. */
    static final int MOST_NAMED = 8;

    /** At most this many halves are tested narrowing it. */
    static final int MOST_NARROWING_TESTS = 512;
}
