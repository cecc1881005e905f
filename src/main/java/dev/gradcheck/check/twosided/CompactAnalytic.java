package dev.gradcheck.check.twosided;

/**
 * A block's analytic values held in about half of a double each: every value a float, and exactly only where its
 * float's rounding is larger than the entry's resolution (its numerical side's rounding bound, which no comparison
 * sees through) or where the float is not a normal number. A value held as a float is {@code rounded}: the exact value
 * lies within {@link #rounding} of it, and the column pass judges it as that interval
 * ({@link ColumnPass}, {@link RoundedMaxima}); a value recomputed later is held exactly.
 *
 * <p>One array of floats, contiguous as the double array it replaces (the column pass reads it a column at a time,
 * an entry per row: one cache miss per entry, and no other), and the exact values by row ({@link ExactByRow}). Where
 * more than {@link #MAX_EXACT_SHARE} of the values, or more than the share the memory budget leaves it (the plan's,
 * {@code RunMemory}), need to be exact, {@link #tooExact} says so, and the run is taken again with exact values where
 * those fit (what it holds: 4 bytes an entry, and at most that share of the entries at up to
 * {@link dev.gradcheck.check.target.HeldBytes#COMPACT_EXACT} bytes each).
 */
final class CompactAnalytic {
    static final double MAX_EXACT_SHARE = 1.0 / 16;
    /**
     * The share of exact values a compact run is always given room for: the budget admits a compact run, and a
     * refusal names the budget it needs, with room for this share ({@code twosided.RunMemory}); beyond it, the run
     * takes what the budget leaves, up to {@link #MAX_EXACT_SHARE}.
     */
    static final double MIN_EXACT_SHARE = 1.0 / 32;
    /** Below this many exact values the map is never too large: a small block may hold them all exactly. */
    static final int EXACT_FLOOR = 4096;
    /**
     * Of the values it may hold exactly, at most one in this many out of row order ({@link ExactByRow}'s map, 52 bytes
     * each at its worst, against 12 in order): {@link dev.gradcheck.check.target.HeldBytes#COMPACT_EXACT} counts both.
     */
    static final int OTHERS_PER_EXACT = 8;
    /**
     * What the float array holds where the value is exact, in {@link #exactValues}: a NaN no conversion of a finite
     * value makes, so that the one float read tells whether the map holds the value.
     */
    private static final int EXACT_MARK = 0x7fc0_e4ac;

    private final float[] floats;
    /** The exact values of the entries marked in {@link #floats}. */
    private final ExactByRow exactValues;
    private final int maxExact;

    CompactAnalytic(int n) {
        this(new int[] {0, n}, n, MAX_EXACT_SHARE);
    }

    /**
     * @param rowStart   where each row's entries begin, the last where the extras begin ({@link Entries#rowStart})
     * @param exactShare the share of the values it may hold exactly, at most {@link #MAX_EXACT_SHARE}
     */
    CompactAnalytic(int[] rowStart, int n, double exactShare) {
        floats = new float[n];
        exactValues = new ExactByRow(rowStart);
        maxExact = (int) Math.max(EXACT_FLOOR, n * Math.min(exactShare, MAX_EXACT_SHARE));
    }

    /** How many values it may hold exactly before it is {@link #tooExact}. */
    int maxExact() {
        return maxExact;
    }

    /**
     * Holds entry {@code at}'s value: as a float where that float is finite, and normal with an ulp no larger than
     * {@code resolution} (twice its rounding, {@link #rounding}) or equal to the value; else exactly.
     */
    void put(int at, double a, double resolution) {
        float f = (float) a;
        if (Float.isFinite(f) && (f == a || Math.abs(f) >= Float.MIN_NORMAL && Math.ulp(f) <= resolution)) {
            if (Float.floatToRawIntBits(floats[at]) == EXACT_MARK) {
                exactValues.forget(at);
            }
            floats[at] = f;
        } else {
            putExact(at, a);
        }
    }

    /** Holds entry {@code at}'s value exactly, whatever it was held as before. */
    void putExact(int at, double a) {
        exactValues.put(at, a);
        floats[at] = Float.intBitsToFloat(EXACT_MARK);
    }

    /** How many values it holds exactly. */
    int exactCount() {
        return exactValues.size();
    }

    /** Whether so many values are held exactly that their map outgrows what the floats save. */
    boolean tooExact() {
        return exactValues.size() > maxExact || exactValues.others() > maxExact / OTHERS_PER_EXACT;
    }

    /** Entry {@code at}'s value: exact, or its float where {@link #rounding} is not 0. */
    double get(int at) {
        float f = floats[at];
        return Float.floatToRawIntBits(f) == EXACT_MARK ? exactValues.get(at) : f;
    }

    /**
     * How far entry {@code at}'s exact value may lie from {@code value}, what {@link #get} gave: 0 where it is held
     * exactly, else half its float's ulp (rounding to nearest; exactly representable beside the float in a double,
     * as is the float plus or minus it). A float equal to its value counts as rounded too: that only widens its
     * interval.
     */
    double rounding(int at, double value) {
        return Float.floatToRawIntBits(floats[at]) == EXACT_MARK ? 0 : Math.ulp((float) value) / 2;
    }
}
