package dev.gradcheck.check.twosided;

import dev.gradcheck.check.dense.BlockJudge;
import dev.gradcheck.check.numeric.Flat;
import java.util.BitSet;

/**
 * One input's entries that sit at a kink along their own column, taken alone ({@link Recompute}'s
 * recomputation): left out of judging, as the dense judge leaves them out, and counted by input element for the
 * row's note. An entry whose backward value lies outside the one-sided slopes there is no subgradient and is
 * judged instead, so it never lands here.
 */
final class Kinks {

    private final BitSet entries = new BitSet();
    private final BitSet columns = new BitSet();

    void add(int at, int col) {
        entries.set(at);
        columns.set(col);
    }

    boolean contains(int at) {
        return entries.get(at);
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The row's note: how many elements sit at a kink, the first of them, and the comparison's own note after. */
    String note(String in, long[] shape, String errorNote) {
        if (isEmpty()) {
            return errorNote;
        }
        String kinks = BlockJudge.kinkNote(columns.cardinality(), Flat.size(shape), in,
                Flat.unravel(columns.nextSetBit(0), shape));
        return errorNote == null ? kinks : kinks + "; " + errorNote;
    }
}
