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
     * A failing input whose full recheck would cost more than this many evaluations (its dense blocks: every column
     * and its probes, every row) is narrowed to its entries instead; up to this, it is rechecked in full.
     */
    static final long RECHECK_IN_FULL_UP_TO = 4096;

    /**
     * What the dense judge spends on a column that disagrees: its 2 forward evaluations and about 18 probing it at
     * a kink and at its most precise step (measured 2026-11-28: 25,680 evaluations for CapsuleStrengthLayer's x of
     * 1,280 columns under 80 rows, its backward wrong everywhere).
     */
    static final long DENSE_EVALUATIONS_PER_FAILING_COLUMN = 20;

    /** At most this many wrong entries are named by narrowing a failing projection. */
    static final int MOST_NAMED = 8;

    /** At most this many halves are tested narrowing it. */
    static final int MOST_NARROWING_TESTS = 512;
}
