package dev.gradcheck.check.numeric;

/**
 * The tuning constants of the numerics, in one place: each is a choice of cost or reach, not a law, named and
 * documented here under the class that reads it.
 */
public final class NumericTuning {

    private NumericTuning() {
    }

    // read by JacobianComparison
    /**
     * Finite differences of a function whose true derivative is zero still show rounding noise of about
     * ε·|y|/δ; numerical values below this many times that bound count as zero.
     */
    static final double NOISE_MARGIN = 64;

    // read by MostPreciseStep
    /**
     * An entry whose score under the tolerance alone is above this is judged again at its most precise step,
     * within its bound or not: where the noise at h reaches the tolerance, the entries just under it would
     * otherwise pass with scores near 1, and the margin of a correct backward would be chance.
     */
    public static final double AGAIN_ABOVE = 0.5;

    // read by KinkDetector
    /** A leftover this large, relative to the slopes themselves, is a kink and not curvature. */
    static final double RELATIVE_JUMP = 1e-3;

    // read by Seeded
    /** What the cache of the last Gaussian draws may hold, in bytes (16 MiB: two million doubles). */
    static final long DRAW_CACHE_BYTES = 16L << 20;
}
