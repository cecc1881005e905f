package dev.gradcheck.check.numeric;

/**
 * Entries of a Jacobian block, by position in the block (row r, column c), that a comparison leaves out: columns
 * at a kink, entries the spec's {@code mask:} names.
 */
@FunctionalInterface
public interface EntryFilter {

    EntryFilter NONE = (r, c) -> false;

    boolean skips(int r, int c);

    /** Entries either filter leaves out. */
    default EntryFilter or(EntryFilter other) {
        if (other == null || other == NONE) {
            return this;
        }
        return this == NONE ? other : (r, c) -> skips(r, c) || other.skips(r, c);
    }

    /** Whole columns. */
    static EntryFilter columns(boolean[] skipped) {
        return skipped == null ? NONE : (r, c) -> skipped[c];
    }
}
