package dev.gradcheck.check.dense;

/**
 * The tuning constants of the dense judge, in one place: each is a choice of cost or reach, not a law, named and
 * documented here under the class that reads it.
 */
public final class DenseTuning {

    private DenseTuning() {
    }

    // read by TieCheck
    /** Output elements with a tie tested per output; the rest are counted in the note. */
    static final int MOST_TIES = 64;

    // read by BlockDiagnosis
    /** Past this many separate runs, an axis's indices are summarised as a count. */
    static final int MAX_RUNS = 6;
}
