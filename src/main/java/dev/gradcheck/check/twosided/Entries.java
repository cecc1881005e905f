package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.numeric.NumericalError;

/**
 * One input's entries inside the pattern, row after row, each row's in ascending column order, then the extras
 * (entries outside the pattern that located lines hold): both sides' values, their error bounds, and the entries
 * left out at kinks.
 *
 * @param index    the input's position among the run's checked inputs: the index a flagged entry names
 * @param rowStart where each row's entries begin; the last, where the extras begin
 * @param tallies  the block's figures so far, of the entries judged as they came ({@link EntryValues}), a tally per
 *                 group of columns; null where the values are held and judged by the report
 */
record Entries(int index, WindowPattern.Input input, int[] rowStart, EntryValues values, NumericalError.Block errors,
               LocatedLines.Extras extras, Kinks kinks, GroupTallies tallies) {

    /** Where extra (p, l) is stored: after the pattern's entries. */
    int extraAt(int p, int l) {
        return rowStart[rowStart.length - 1] + extras.index(p, l);
    }

    /**
     * Takes entry (row, col)'s analytic value, stored at {@code at}: where the values are held compactly, rounded by
     * no more than the entry's numerical rounding bound, below what the entry's two sides can be told apart by.
     */
    void analytic(int at, int row, int col, double a) {
        values.analytic(at, a, values.compact() ? errors.rounding(row, col) : 0);
    }

    String name() {
        return input.name();
    }
}
