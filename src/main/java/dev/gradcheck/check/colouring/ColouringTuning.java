package dev.gradcheck.check.colouring;

/**
 * The tuning constants of the colourings and compressed decompression, in one place: each is a choice of cost or
 * reach, not a law, named and documented here under the class that reads it.
 */
public final class ColouringTuning {

    private ColouringTuning() {
    }

    // read by CompressedJacobians
    /**
     * A group is evaluated again line by line when an entry attributed to one of its members scores above this
     * (a quarter of what the tolerance allows): well below a failure, so that a disagreement near the tolerance is
     * judged on dense values, and well above the rounding of a correct backward.
     */
    public static final double SCREEN = 0.25;

    /** What one backward pass costs, in forward evaluations, for choosing the side computed in full. */
    public static final double BACKWARD_COST = 1.5;

    /**
     * Compression needs a rule that fails a relative difference this large at magnitude 1 (the default tolerances
     * of float64 and float32 do; float16's and bfloat16's do not): random weights differ by less than the
     * tolerance too often for a looser rule to tell a swap of two entries from their right order.
     */
    public static final double RESOLUTION = 2e-3;

    // read by Colouring
    /**
     * Work allowed for one colouring: the sum over positions of (lines at the position)², the number of conflicts
     * the first-fit search may look at. Denser patterns than this compress little anyway; their lines stay alone.
     */
    static final long MAX_WORK = 50_000_000L;

    // read by PatternProbe
    /**
     * How many steps a probe's base point may move past rows whose backward is zero (a relu's rows at inputs below
     * or at zero): with half the rows zero, the chance that 16 shifts find no base whose rows are all nonzero is
     * (7/8)^17 ≈ 10% per base for a two-dimensional output; 32 brings it near 1%. Each shift costs one backward
     * pass per output dimension and one more.
     */
    static final int MOST_PROBE_SHIFTS = 32;
}
