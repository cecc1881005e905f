package dev.gradcheck.check.twosided;

import dev.gradcheck.check.dense.BlockJudge;
import dev.gradcheck.check.dense.KinkEntry;
import dev.gradcheck.check.numeric.Flat;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * One input's entries that sit at a kink along their own column, taken alone ({@link Recompute}'s
 * recomputation): left out of judging, as the dense judge leaves them out, and counted by input element for the
 * row's note. An entry whose backward value lies outside the one-sided slopes there is no subgradient and is
 * judged instead, so it never lands here. Each is kept with its one-sided slopes, for judging the ties among them
 * as a whole ({@link Ties}).
 */
final class Kinks {

    private final BitSet entries = new BitSet();
    private final BitSet columns = new BitSet();
    private final List<Tied> tied = new ArrayList<>();

    /**
     * An entry at a kink as the tie check takes it.
     *
     * @param numerical its column's central difference alone, which straddles the kink: the report's value there
     */
    record Tied(KinkEntry entry, double numerical) {}

    void add(int at, Tied entry) {
        entries.set(at);
        columns.set(entry.entry().flatCol());
        tied.add(entry);
    }

    List<Tied> tied() {
        return tied;
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
