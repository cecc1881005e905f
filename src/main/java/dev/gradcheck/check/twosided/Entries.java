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
 */
record Entries(int index, WindowPattern.Input input, int[] rowStart, EntryValues values, NumericalError.Block errors,
               LocatedLines.Extras extras, Kinks kinks) {

    /** Where extra (p, l) is stored: after the pattern's entries. */
    int extraAt(int p, int l) {
        return rowStart[rowStart.length - 1] + extras.index(p, l);
    }

    String name() {
        return input.name();
    }
}
