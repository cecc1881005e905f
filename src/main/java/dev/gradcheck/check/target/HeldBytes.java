package dev.gradcheck.check.target;

/**
 * What each of full mode's paths holds per Jacobian entry, in one place: the memory gates (full mode's footprint,
 * the dense blocks a target falls back to, the one-sided and two-sided paths' own) count these, so that
 * {@code --max-memory} bounds what each path really holds. Measured 2026-11-28 (docs/benchmarks-scale.md, "What
 * --max-memory bounds"): the least {@code -Xmx} under which full mode of softmax [1, N] finishes, serial collector,
 * 8 MiB young generation, between N = 2048 and N = 4096 (12.6 M entries more), each path forced in turn.
 */
public final class HeldBytes {

    private HeldBytes() {}

    /**
     * Dense blocks, per entry of one side: its double, and the copy judging compares ({@code Jacobian.select}).
     * Measured 31.9 B per entry for both sides together (30.7 B between N = 1024 and 2048); counted 16 before.
     */
    public static final long DENSE_PER_SIDE = 2L * Double.BYTES;

    /**
     * One side compressed, per entry of the block (every entry where the pattern is dense, as a block the paths
     * cannot yet see into must be counted): both sides' nonzero lines (a position and a value each, grown by
     * doubling), the block's entries (two indices, three doubles) as they are collected and their sorted copy.
     * Measured 88 B (89 B between N = 1024 and 2048); counted 16 before.
     */
    public static final long ONE_SIDED = 88;

    /**
     * Both sides compressed, entries judged as they come: the analytic double. Measured 8.1 B. Where these would take
     * more than a quarter of the budget the run holds them compactly ({@link #TWO_SIDED_COMPACT}), and takes them
     * again with doubles only where these fit.
     */
    public static final long TWO_SIDED_JUDGED = Double.BYTES;

    /**
     * The same, held compactly ({@code twosided.CompactAnalytic}): a float each, and the values that need a double
     * in a map ({@link #COMPACT_EXACT} each), as many as the budget leaves room for.
     */
    public static final long TWO_SIDED_COMPACT = Float.BYTES;

    /**
     * An analytic value a compact block holds exactly ({@code twosided.ExactByRow}): a position and a double appended
     * in row order, 12 bytes; and room for one in eight out of that order, in a map (fastutil 6's
     * {@code Int2DoubleOpenHashMap}: an int key, a double and a used flag per slot, slots at most three quarters
     * full, and the old arrays beside the new ones while it doubles: 52 bytes at worst), 6.5 bytes more.
     */
    public static final long COMPACT_EXACT = 19;

    /** Both sides compressed, entries held (a rule that reads the block's scale): a float more. Not measured apart. */
    public static final long TWO_SIDED_HELD = Double.BYTES + Float.BYTES;
}
