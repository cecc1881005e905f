package dev.gradcheck.check.twosided;

import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;
import java.util.Arrays;

/**
 * The analytic values a compact block holds exactly ({@link CompactAnalytic}), by position: appended a row at a
 * time, each row's in ascending position, as the row pass gives them (every row's entries come from one backward
 * pass, in its window's order), and found again by binary search within their row. 12 bytes a value and no table
 * that doubles: a hash map of them took 52 bytes a value at its worst, and three cache misses a put into a table of
 * hundreds of MB (dot_product_attention [2,4,64,128]: 59% of its row pass). A value that comes out of that order (a
 * row's again, an extra, a value recomputed later) goes into a small map, which is looked in first.
 */
final class ExactByRow {
    private static final int CHUNK_BITS = 16;
    private static final int CHUNK = 1 << CHUNK_BITS;

    /** Where each row's entries begin; the last, where the extras begin. */
    private final int[] rowStart;
    /** Per row: where its values begin among those appended, or -1; and how many. */
    private final int[] first;
    private final int[] count;
    private int[][] positions = new int[0][];
    private double[][] values = new double[0][];
    private int size;
    private int lastRow = -1;
    private int lastAt = -1;
    /** The values that came out of row order. */
    private final Int2DoubleOpenHashMap others = new Int2DoubleOpenHashMap();

    ExactByRow(int[] rowStart) {
        this.rowStart = rowStart;
        first = new int[rowStart.length - 1];
        count = new int[rowStart.length - 1];
        Arrays.fill(first, -1);
    }

    /**
     * Holds {@code a} at {@code at}: appended where it continues its row's values in order, or begins a row that has
     * none; else in the map (a position in the map is never appended later: its row had begun, or it is an extra).
     */
    void put(int at, double a) {
        int row = rowOf(at);
        if (row >= 0 && (row == lastRow ? at > lastAt : first[row] < 0)) {
            append(row, at, a);
        } else {
            others.put(at, a);
        }
    }

    private void append(int row, int at, double a) {
        if ((size & (CHUNK - 1)) == 0) {
            int chunks = (size >>> CHUNK_BITS) + 1;
            positions = Arrays.copyOf(positions, chunks);
            values = Arrays.copyOf(values, chunks);
            positions[chunks - 1] = new int[CHUNK];
            values[chunks - 1] = new double[CHUNK];
        }
        if (first[row] < 0) {
            first[row] = size;
        }
        count[row]++;
        positions[size >>> CHUNK_BITS][size & (CHUNK - 1)] = at;
        values[size >>> CHUNK_BITS][size & (CHUNK - 1)] = a;
        size++;
        lastRow = row;
        lastAt = at;
    }

    /** The value last put at {@code at}, which must have been put. */
    double get(int at) {
        if (!others.isEmpty() && others.containsKey(at)) {
            return others.get(at);
        }
        int row = rowOf(at);
        int lo = first[row];
        int hi = lo + count[row] - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int p = positions[mid >>> CHUNK_BITS][mid & (CHUNK - 1)];
            if (p < at) {
                lo = mid + 1;
            } else if (p > at) {
                hi = mid - 1;
            } else {
                return values[mid >>> CHUNK_BITS][mid & (CHUNK - 1)];
            }
        }
        throw new IllegalStateException("no exact value held at " + at);
    }

    /** How many values it holds. */
    int size() {
        return size + others.size();
    }

    /** How many of them came out of row order (into the map). */
    int others() {
        return others.size();
    }

    /** Lets go of a value held in the map (one appended is found no more once its position is not marked exact). */
    void forget(int at) {
        others.remove(at);
    }

    /** The row whose entries hold position {@code at}, or -1 for an extra. */
    private int rowOf(int at) {
        if (lastRow >= 0 && at >= rowStart[lastRow] && at < rowStart[lastRow + 1]) {
            return lastRow;
        }
        if (at >= rowStart[rowStart.length - 1]) {
            return -1;
        }
        int lo = 0;
        int hi = rowStart.length - 2; // the last row whose start is at most at
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (rowStart[mid] <= at) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
