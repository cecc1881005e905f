package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.ColouringTuning;

/**
 * The tuning constants of the two-sided run, in one place: each is a choice of cost or reach, not a law, named and
 * documented here under the class that reads it.
 */
public final class TwoSidedTuning {

    private TwoSidedTuning() {
    }

    // read by TwoSidedCompression
    /**
     * Below this cost of the one-sided path's known side (in forward evaluations, a backward pass counting
     * {@link ColouringTuning#BACKWARD_COST}), that path is cheap enough and keeps its evaluation counts.
     */
    static final double MIN_KNOWN_COST = 4096;

    /** Taken only where it costs at most this share of the one-sided path's known side. */
    static final double MAX_SHARE = 0.5;

    /**
     * At most this many entries whose own judgement fails on compressed values are recomputed from their row's and
     * column's own evaluations; more, and the target takes the one-sided path.
     */
    static final int MAX_RECOMPUTED = 4096;

    /**
     * At most this many entries whose rests their own numerical error may spoil are settled by {@link SplitRests}
     * (a record each, held until the column passes end); more, and the target is not settled here.
     */
    static final int MAX_SPOILED = 1 << 20;

    /** Evaluations held at once, per thread: each is one vector per cross unit. */
    static final int BATCH_PER_THREAD = 8;

    /** What the budget weighs before the pattern is known: doubles held per element of either side's vectors. */
    public static final long VECTORS_HELD = 2L * BATCH_PER_THREAD;

    // read by Culprits
    /** Runs of the check with more lines located, before the search gives up on explaining every evaluation. */
    static final int MAX_ROUNDS = 3;

    /** Lines located at most, rows and columns together. */
    static final int MAX_LINES = 512;

    /**
     * Forward evaluations (a backward pass counting {@link ColouringTuning#BACKWARD_COST}) the search may spend at
     * least. Equal to {@link #MIN_KNOWN_COST} by chance: the two limits are unrelated.
     */
    static final double MIN_BUDGET = 4096;

    // read by CountingRound
    /**
     * Forward evaluations {@link FinerSteps} may take along one group of columns, as a counting round weighs its
     * cost in advance: its probes at h, 100·h, 10·h and h/10, seven points each at most.
     */
    static final int FINER_FORWARDS = 28;

    /**
     * The share of the memory budget above which the analytic values of a block judged as its entries come are held
     * compactly ({@link CompactAnalytic}): below it memory is not what limits a check, and a run that meets an
     * entry its rounded value cannot settle (one near the tolerance) is not taken twice.
     */
    static final double COMPACT_SHARE = 0.25;
}
