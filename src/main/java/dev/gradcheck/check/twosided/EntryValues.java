package dev.gradcheck.check.twosided;

import dev.gradcheck.check.numeric.LargestFinite;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.target.HeldBytes;
import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2LongOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntIterator;
import it.unimi.dsi.fastutil.ints.IntSet;
import it.unimi.dsi.fastutil.longs.Long2DoubleOpenHashMap;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Both sides' values of an input's entries, the one home of an entry's value: the analytic value, held for every
 * entry from the row pass to the column pass (a double each, or, in a block judged as it comes whose doubles would
 * take more than a quarter of the budget, mostly a float each: {@link CompactAnalytic}); and the numerical value,
 * kept one of two ways.
 * <ul>
 *   <li><b>held</b>, where the block's rule reads the block's scale (float32's default), which is known only once
 *       every numerical value is: every entry's numerical value as its difference from the analytic one, a float
 *       (where the two pass the rule they agree to about 1e-6, so the float keeps the numerical value to about
 *       1e-13 of itself), and the report judges every entry at its end;</li>
 *   <li><b>judged as it comes</b> (every other rule): an entry the column pass's screen lets through is final, so
 *       it goes straight into its input's {@link Entries#tally} and is not kept; only the entries the screen sends
 *       on (near the tolerance, rests to settle, to recompute) keep their value at the run's step, by position,
 *       for the phases after and the report. A third less memory than held, and no second pass over the entries.</li>
 * </ul>
 * Either way, an entry recomputed alone keeps its exact values, and an entry taken again at a more precise step
 * keeps its value there, which is the value judged (its bound there is its block's,
 * {@code NumericalError.Block#atPreciseStep}).
 */
final class EntryValues {
    /** Every entry's analytic value, exactly; null where they are held compactly. */
    private final double[] analytic;
    /**
     * Exact analytic values past {@link #analytic}'s end: the extras of lines located after these values were laid
     * out, in a round that evaluates only the groups its lines touch ({@link TouchedGroups}).
     */
    private final Int2DoubleOpenHashMap beyond = new Int2DoubleOpenHashMap();
    /** Judged as they come, in a block too large to hold doubles for: the analytic values, mostly as floats. */
    private final CompactAnalytic compact;
    /** The largest finite |analytic value| taken, where they are held compactly. */
    private final LargestFinite largestAnalytic = new LargestFinite();
    /** Held: every entry's analytic minus numerical value; null where entries are judged as they come. */
    private final float[] gap;
    /** Judged as they come: the entries the screen sent on, their value at the run's step and their position. */
    private final Int2DoubleOpenHashMap sentOn = new Int2DoubleOpenHashMap();
    private final Int2LongOpenHashMap sentOnAt = new Int2LongOpenHashMap();
    /** Judged as they come: the largest finite |numerical value| of the entries judged so. */
    private final LargestFinite largestJudged = new LargestFinite();
    private final Int2DoubleOpenHashMap exact = new Int2DoubleOpenHashMap();
    /** Where {@link #exact} holds a value (any double may be one, so the map's own answer cannot say). */
    private final BitSet isExact = new BitSet();
    /** By (row, col) of the block: an entry's value at its most precise step, where it was taken again there. */
    private final Long2DoubleOpenHashMap atPreciseStep = new Long2DoubleOpenHashMap();
    /** The rows with an entry in {@link #atPreciseStep}: the other rows' entries are looked up in no map. */
    private final BitSet preciseRows = new BitSet();

    /**
     * @param held whether every entry's numerical value is kept (the rule reads the block's scale), rather than
     *             judged as it comes
     */
    EntryValues(int n, boolean held) {
        this(n, held, 0);
    }

    /**
     * @param exactShare where above 0, the analytic values are held compactly ({@link CompactAnalytic}), this share
     *                   of them at most exactly: only where they are judged as they come
     */
    EntryValues(int n, boolean held, double exactShare) {
        this(new int[] {0, n}, n, held, exactShare);
    }

    /** @param rowStart where each row's entries begin, the last where the extras begin ({@link Entries#rowStart}) */
    EntryValues(int[] rowStart, int n, boolean held, double exactShare) {
        boolean compact = exactShare > 0;
        if (compact && held) {
            throw new IllegalArgumentException("held values are judged by the report, which needs them exactly");
        }
        analytic = compact ? null : new double[n];
        this.compact = compact ? new CompactAnalytic(rowStart, n, exactShare) : null;
        gap = held ? new float[n] : null;
    }

    /** What {@code n} entries cost, in bytes: a double each, and a float more where they are held. */
    static long bytes(long n, boolean held) {
        return (held ? HeldBytes.TWO_SIDED_HELD : HeldBytes.TWO_SIDED_JUDGED) * n;
    }

    boolean held() {
        return gap != null;
    }

    /** Entry {@code at}'s analytic value: exact, or rounded where {@link #rounding} is not 0. */
    double analytic(int at) {
        if (compact != null) {
            return compact.get(at);
        }
        return at < analytic.length ? analytic[at] : beyond.get(at);
    }

    /**
     * The analytic values of entries {@code at[0]} to {@code at[count − 1]}, into {@code into}, as {@link #analytic}
     * gives each: one tight loop first, whose reads of entries a row apart (a cache miss each) overlap, where the
     * loop that judges them does too much per entry for the processor to have more than one or two in flight.
     */
    void analytic(int[] at, int count, double[] into) {
        if (compact != null) {
            for (int i = 0; i < count; i++) {
                into[i] = compact.get(at[i]);
            }
            return;
        }
        for (int i = 0; i < count; i++) {
            into[i] = at[i] < analytic.length ? analytic[at[i]] : beyond.get(at[i]);
        }
    }

    /**
     * How far entry {@code at}'s exact analytic value may lie from {@code a}, its value as {@link #analytic} gave it:
     * 0 where it is exact.
     */
    double rounding(int at, double a) {
        return compact != null ? compact.rounding(at, a) : 0;
    }

    /** Whether analytic values may be held rounded ({@link CompactAnalytic}). */
    boolean compact() {
        return compact != null;
    }

    /** Whether they are, but so many of them exactly that the run is better taken again with exact values. */
    boolean tooExact() {
        return compact != null && compact.tooExact();
    }

    /** How many of them are held exactly where they are held compactly (0 where they are not). */
    long exactCount() {
        return compact != null ? compact.exactCount() : 0;
    }

    /** How many of them may be held exactly where they are held compactly. */
    int maxExact() {
        return compact != null ? compact.maxExact() : analytic.length;
    }

    /**
     * Takes entry {@code at}'s analytic value; where they are held compactly, rounded only by less than
     * {@code resolution}.
     */
    void analytic(int at, double a, double resolution) {
        if (compact == null) {
            exactAnalytic(at, a);
        } else {
            compact.put(at, a, resolution);
            largestAnalytic.add(a);
        }
    }

    private void exactAnalytic(int at, double a) {
        if (compact != null) {
            compact.putExact(at, a);
        } else if (at < analytic.length) {
            analytic[at] = a;
        } else {
            beyond.put(at, a);
        }
    }

    /** An entry's numerical value: held, recomputed, or sent on by the screen (no other is kept). */
    double numerical(int at) {
        if (isExact.get(at)) {
            return exact.get(at);
        }
        return gap != null ? analytic[at] - gap[at] : sentOn.get(at);
    }

    /** Keeps entry (row, col)'s numerical value at the run's step: every entry where held, else one sent on. */
    void numerical(int at, int row, int col, double n) {
        if (gap != null) {
            gap[at] = (float) (analytic[at] - n);
        } else {
            sentOn.put(at, n);
            sentOnAt.put(at, ((long) row << 32) | (col & 0xFFFFFFFFL));
        }
    }

    /** An entry judged as it came, its numerical value not kept: counted in the block's scale. */
    void judged(double n) {
        largestJudged.add(n);
    }

    /** The entries sent on by the screen, by position (judged as they come only). */
    IntSet sentOn() {
        return sentOn.keySet();
    }

    /** An entry sent on: where it is stored, its row and column, its value at the run's step. */
    record SentOn(int at, int row, int col, double numerical) {}

    /** The entries sent on, each with its value at the run's step, whatever it was recomputed as since. */
    List<SentOn> sentOnEntries() {
        List<SentOn> all = new ArrayList<>();
        for (IntIterator it = sentOn.keySet().iterator(); it.hasNext();) {
            int at = it.nextInt();
            all.add(new SentOn(at, rowOf(at), colOf(at), sentOn.get(at)));
        }
        return all;
    }

    /** The output row of an entry sent on. */
    int rowOf(int at) {
        return (int) (sentOnAt.get(at) >>> 32);
    }

    /** The input column of an entry sent on. */
    int colOf(int at) {
        return (int) sentOnAt.get(at);
    }

    /** The entries whose values were recomputed alone ({@link #exact}), as they are now. */
    BitSet recomputed() {
        return (BitSet) isExact.clone();
    }

    /**
     * Forgets what was kept of entry (row, col), stored at {@code at}: its value sent on, recomputed or taken at a
     * finer step. It is judged again, by a round that evaluates its group again ({@link TouchedGroups}).
     */
    void forget(int at, int row, int col) {
        sentOn.remove(at);
        sentOnAt.remove(at);
        exact.remove(at);
        isExact.clear(at);
        if (preciseRows.get(row)) {
            atPreciseStep.remove(NumericalError.entryKey(row, col));
        }
    }

    /** An entry's values as the dense check computes them. */
    void exact(int at, double a, double n) {
        exactAnalytic(at, a);
        exact.put(at, n);
        isExact.set(at);
    }

    /** Records entry (row, col)'s value at a more precise step: the value it is judged by from now on. */
    void atPreciseStep(int row, int col, double value) {
        atPreciseStep.put(NumericalError.entryKey(row, col), value);
        preciseRows.set(row);
    }

    /**
     * Entry (row, col)'s numerical value as judged: at its most precise step where it was taken there, else the one
     * given (its value at the run's step).
     */
    double judged(int row, int col, double atStep) {
        if (!preciseRows.get(row)) {
            return atStep;
        }
        long key = NumericalError.entryKey(row, col);
        return atPreciseStep.containsKey(key) ? atPreciseStep.get(key) : atStep;
    }

    /** The largest finite |analytic value|, the scale of the screen's rule. */
    double largestAnalytic() {
        if (compact != null) {
            return largestAnalytic.value();
        }
        LargestFinite largest = new LargestFinite();
        largest.add(LargestFinite.of(analytic));
        beyond.values().forEach(largest::add);
        return largest.value();
    }

    /**
     * The largest finite |numerical value| at the run's step (recomputed where an entry was), the scale of the
     * report's rule: over every entry where held; else over those judged as they came and those sent on.
     */
    double largestNumerical() {
        if (gap != null) {
            return LargestFinite.of(analytic.length, this::numerical);
        }
        LargestFinite largest = new LargestFinite();
        largest.add(largestJudged.value());
        for (IntIterator at = sentOn.keySet().iterator(); at.hasNext();) {
            largest.add(numerical(at.nextInt()));
        }
        return largest.value();
    }
}
