package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.Sides;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.target.HeldBytes;
import dev.gradcheck.spec.MemoryBudget;

/**
 * What a two-sided run holds, as its plan weighs it against the budget: the pattern's entries (a double each, a float
 * more where the values are held; a float each, and the few that need it exactly, where the analytic values are held
 * compactly) and a batch of evaluations per thread. The plan counts what the run will hold, so that a run whose
 * compact values fit is admitted where exact ones would not, and the compact run then takes itself again with exact
 * values only where those fit ({@link Holding}).
 */
final class RunMemory {

    private RunMemory() {}

    /**
     * How a run holds its analytic values, as the plan found them to fit: compactly ({@link CompactAnalytic}) where
     * exact ones would take more than the gate's share of the budget, at most {@code exactShare} of them exactly
     * (what the budget leaves beside the floats and the batches, at {@link HeldBytes#COMPACT_EXACT} each: at least
     * {@link CompactAnalytic#MIN_EXACT_SHARE}, which the plan counts); and
     * whether exact values fit at all, with what they need: a compact run that cannot settle the target on its
     * floats is taken again with exact values only where they fit, and is refused with that figure where not.
     *
     * @param exactShare where above 0, the values are held compactly, this share of them at most exactly
     * @param exactBytes what exact values and one thread's evaluations need
     */
    record Holding(double exactShare, boolean exactFits, long exactBytes) {
        static final Holding EXACT = new Holding(0, true, 0);

        boolean compact() {
            return exactShare > 0;
        }
    }

    /** How a run with this many threads' batches holds its values under the budget. */
    static Holding holding(Sides sides, String out, WindowPattern pattern, int threads, MemoryBudget budget,
                           boolean compact) {
        long exact = bytes(sides, out, pattern, 1, false);
        if (!compact) {
            return new Holding(0, budget.fits(exact), exact);
        }
        long left = Math.max(0, budget.bytes() - withoutExact(sides, out, pattern, Math.max(1, threads), true));
        double share = left / ((double) HeldBytes.COMPACT_EXACT * Math.max(1, judgedEntries(sides, out, pattern)));
        // at least MIN_EXACT_SHARE where the plan admitted it (bytes() counts that much); never 0, read as exact
        return new Holding(Math.max(Double.MIN_VALUE, Math.min(share, CompactAnalytic.MAX_EXACT_SHARE)),
                budget.fits(exact), exact);
    }

    /**
     * The entries inside the pattern ({@link EntryValues#bytes}: a double each, and a float more where the values
     * are held; where held compactly, a float each and room for {@link CompactAnalytic#MIN_EXACT_SHARE} of them
     * exactly), and a batch of evaluations per thread.
     */
    static long bytes(Sides sides, String out, WindowPattern pattern, int threads, boolean compact) {
        long bytes = withoutExact(sides, out, pattern, threads, compact);
        if (compact) {
            for (WindowPattern.Input x : pattern.inputs()) {
                if (!TwoSidedRun.held(sides, out, x.name())) {
                    bytes += HeldBytes.COMPACT_EXACT * Math.max(CompactAnalytic.EXACT_FLOOR,
                            (long) Math.ceil(entries(pattern, x) * CompactAnalytic.MIN_EXACT_SHARE))
                            + 2L * Integer.BYTES * pattern.rows(); // where each row's exact values are
                }
            }
        }
        return bytes;
    }

    /** The same without the compact values' exact ones. */
    private static long withoutExact(Sides sides, String out, WindowPattern pattern, int threads, boolean compact) {
        long bytes = 0;
        long vectors = pattern.rows();
        for (WindowPattern.Input x : pattern.inputs()) {
            boolean held = TwoSidedRun.held(sides, out, x.name());
            long n = entries(pattern, x);
            bytes += compact && !held ? HeldBytes.TWO_SIDED_COMPACT * n : EntryValues.bytes(n, held);
            vectors += Flat.size(x.shape());
        }
        return bytes + (long) TwoSidedTuning.BATCH_PER_THREAD * threads * vectors * Double.BYTES;
    }

    /**
     * How many threads' batches of evaluations fit the budget beside the pattern's entries: the run's threads, or
     * fewer (a batch per thread held at once), or 0 when not even one's do. Fewer batches only slow the run; the
     * evaluations and their values are the same, so validate's estimate of one batch and the check agree.
     */
    static int threadsThatFit(Sides sides, String out, WindowPattern pattern, int threads, MemoryBudget budget,
                              boolean compact) {
        for (int k = threads; k >= 1; k--) {
            if (budget.fits(bytes(sides, out, pattern, k, compact))) {
                return k;
            }
        }
        return 0;
    }

    /**
     * What the pattern holds, for a refusal: its entries (a window's every element for every output row, each input
     * apart), what each costs, and the share of the dense blocks they are ("412,090,368 entries, 8 bytes each,
     * 2.1% of the dense blocks"; "a float each and room for 1/32 of them exact" where they would be held compactly).
     */
    static String holds(Sides sides, String out, WindowPattern pattern, boolean compact) {
        long entries = 0;
        long dense = 0;
        long perEntry = 0;
        for (WindowPattern.Input x : pattern.inputs()) {
            entries += entries(pattern, x);
            dense += pattern.rows() * Flat.size(x.shape());
            perEntry = Math.max(perEntry, EntryValues.bytes(1, TwoSidedRun.held(sides, out, x.name())));
        }
        String each = compact ? String.format(java.util.Locale.ROOT, "a float each and room for 1/%d of them exact",
                Math.round(1 / CompactAnalytic.MIN_EXACT_SHARE)) : perEntry + " bytes each";
        return String.format(java.util.Locale.ROOT, "%,d entries (%s, %.1f%% of the dense blocks)", entries, each,
                100.0 * entries / Math.max(1, dense));
    }

    /** What the entries of the inputs judged as they come take with exact analytic values. */
    static long judgedBytes(Sides sides, String out, WindowPattern pattern) {
        return EntryValues.bytes(judgedEntries(sides, out, pattern), false);
    }

    private static long judgedEntries(Sides sides, String out, WindowPattern pattern) {
        long n = 0;
        for (WindowPattern.Input x : pattern.inputs()) {
            if (!TwoSidedRun.held(sides, out, x.name())) {
                n += entries(pattern, x);
            }
        }
        return n;
    }

    private static long entries(WindowPattern pattern, WindowPattern.Input x) {
        long entries = 0;
        for (int p = 0; p < pattern.rows(); p++) {
            entries += WindowPattern.size(pattern.window(p, x));
        }
        return entries;
    }
}
