package dev.gradcheck.check.twosided;

import java.util.ArrayList;
import java.util.List;

/**
 * What a two-sided check's screen saw ({@link RowPass}, {@link ColumnPass}, {@link FinerSteps}): entries whose own judgement failed on compressed values (to be recomputed line by line,
 * as the one-sided screen recomputes a group), and what no recomputation of one entry can settle (a value
 * outside the guessed pattern, an evaluation whose rest is not zero), the first of each named.
 */
final class TwoSidedScreen {

    /**
     * An entry inside the pattern that its judgements sent back: where it is stored, and its column's applied weight
     * with the strictest other member of its column group (-1: alone) and that member's applied weight, and the
     * other member with the largest step ({@code boundCol}), whose error bound a rest is judged with; and its row's
     * outputs at x ± H along the group, the central stencil's two points (NaN where not kept), which a probe along
     * the group reads instead of evaluating them again (two doubles: near entries can number millions).
     */
    record Flagged(int input, int group, int row, int col, int at, double colWeight, int otherCol,
                   double otherWeight, int boundCol, double atPlus, double atMinus) {

        /** Whether the row's outputs at x ± H were kept. */
        boolean keptPoints() {
            return !Double.isNaN(atPlus) && !Double.isNaN(atMinus);
        }
    }

    /**
     * A group's evaluation that holds what its pattern does not explain, at one position: on the rows' side a
     * backward pass over row group {@code group} at column {@code position} of input {@code input}; on the
     * columns' side a difference over that input's column group {@code group} at output row {@code position}.
     */
    record Suspect(boolean rowSide, int input, int group, int position) {}

    private final List<Flagged> entries = new ArrayList<>();
    /** Entries whose evaluations are clean but whose own score is near the tolerance: to take at a finer step. */
    private final List<Flagged> near = new ArrayList<>();
    /** How the near entries of inputs declared affine were taken, for their rows' notes. */
    private final AffineTally affine = new AffineTally();
    private final List<Suspect> suspects = new ArrayList<>();

    /**
     * An entry whose own judgement passed the screen but whose rests did not, on the rows' side, the columns' side
     * or both: perhaps only its own numerical error, large beside what the other members are allowed
     * ({@link SplitRests} settles it); {@code near} when it is then to be taken at its most precise step.
     */
    record Spoiled(Flagged entry, boolean rows, boolean columns, boolean near) {}

    private final List<Spoiled> spoiled = new ArrayList<>();
    private long hard;
    /** Whether a flag went past the lists that say where it is ({@link #unplaced}). */
    private boolean unplaced;
    private String first;
    /** Where a rounded analytic value left an entry unsettled ({@link CompactAnalytic}): the first such; or null. */
    private String needsExact;
    /**
     * Whether an entry failing with its rests is taken as one whose rests only its own difference's error spoils
     * ({@link SplitRests}, then {@link FinerSteps}) rather than sent back: set for a last run, once every entry
     * judged alone passed ({@link TwoSidedCompression}).
     */
    private boolean finerSteps;
    /**
     * Whether this run counts every failing entry of a backward wrong at more entries than a search can locate
     * ({@link CountingRound}): an entry still beyond the rule at its most precise step is left to the report there,
     * and any entry sent back to be recomputed alone stops the round (it cannot settle within its bound).
     */
    private boolean counting;

    void flag(String what) {
        if (hard++ == 0 && first == null) {
            first = what;
        }
    }

    /** A value outside the pattern, at a known evaluation and position: {@link Culprits} can look for it. */
    void flag(String what, Suspect where) {
        flag(what);
        if (suspects.size() <= TwoSidedTuning.MAX_RECOMPUTED) {
            suspects.add(where);
        } else {
            unplaced = true;
        }
    }

    List<Suspect> suspects() {
        return suspects;
    }

    void entry(Flagged f, String what) {
        if (counting) {
            flag(what + ": not counted within the bound of a counting round");
            return;
        }
        if (entries.size() <= TwoSidedTuning.MAX_RECOMPUTED) {
            entries.add(f);
        }
        if (first == null) {
            first = what;
        }
    }

    /** Nothing sent back that a recomputation of single entries cannot settle, nor that needs exact values. */
    boolean clean() {
        return needsExact == null && hard == 0 && entries.size() <= TwoSidedTuning.MAX_RECOMPUTED;
    }

    /**
     * An entry held rounded that the screen cannot let through on that value, or one that might be a block's
     * maximum: the run stops, and is taken again with exact values ({@link TwoSidedCompression}).
     */
    void needsExact(String what) {
        if (needsExact == null) {
            needsExact = what;
        }
    }

    /** Why the run needs its analytic values exactly, or null where it does not. */
    String needsExact() {
        return needsExact;
    }

    List<Flagged> entries() {
        return entries;
    }

    /** An entry for {@link SplitRests}; past {@link TwoSidedTuning#MAX_SPOILED} of them, what they cannot settle. */
    void spoiled(Spoiled s, String what) {
        if (spoiled.size() < TwoSidedTuning.MAX_SPOILED) {
            spoiled.add(s);
        } else {
            flag(what);
            unplaced = true;
        }
    }

    /**
     * Whether something was sent back that no located line accounts for: every other flag names a suspect
     * evaluation or an entry sent back ({@link #entries}, whose row and column {@link Culprits} locates), so a round
     * that evaluates only the groups its located lines touch ({@link TouchedGroups}) meets it again.
     */
    boolean unplaced() {
        return unplaced || entries.size() > TwoSidedTuning.MAX_RECOMPUTED;
    }

    List<Spoiled> spoiled() {
        return spoiled;
    }

    void near(Flagged f) {
        near.add(f);
    }

    AffineTally affine() {
        return affine;
    }

    List<Flagged> near() {
        return near;
    }

    void takeFailingAtFinerSteps() {
        finerSteps = true;
    }

    /**
     * As {@link #takeFailingAtFinerSteps}, for a round that counts ({@link #counting}): an entry beyond the rule at
     * its most precise step is judged there by the report, not recomputed alone.
     */
    void countAtFinerSteps() {
        finerSteps = true;
        counting = true;
    }

    /**
     * An entry {@link FinerSteps} found beyond the rule at its most precise step, its rests clean: sent back to be
     * recomputed alone as the dense check computes it, or, where this run counts, left to the report at that step.
     */
    void beyondAtPreciseStep(Flagged f, String what) {
        if (!counting) {
            entry(f, what);
        }
    }

    boolean takesFailingAtFinerSteps() {
        return finerSteps;
    }

    /** Whether something was flagged that a recomputation of single entries cannot settle. */
    boolean flagged() {
        return hard > 0;
    }

    String first() {
        return first;
    }
}
