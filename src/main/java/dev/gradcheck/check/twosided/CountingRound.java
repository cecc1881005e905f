package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.ColouringTuning;
import dev.gradcheck.check.numeric.Flat;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An exact count of a backward wrong at more entries than the search for culprits may locate (tanh's scaled by
 * 1 + 1e-3: every entry of its diagonal), where the search leaves a lower bound. Taken over the last run's own
 * values, not a run again: that run read every entry's analytic value off its group of rows and judged the entries
 * of the groups of columns it evaluated, keeping the value of each entry its screen sent on; it stopped only because
 * more entries failed than are recomputed alone. The round evaluates the groups of columns that run did not reach,
 * screens again every entry it sent on, and takes each entry that fails with its rests as one whose rests only its
 * own error spoils: {@link SplitRests} reads the other members' values at its position off evaluations that leave it
 * out (a value there is one outside the pattern, and stops the round), and {@link FinerSteps} takes the entry at its
 * most precise step along its group, where the report judges it. Every entry of the pattern is then judged on its
 * own values, and the count is the dense judge's (docs/checking.md, "An exact count where the pattern holds").
 *
 * <p>Bounded in advance: taken only where what the run and the search saw allows a count (no located line holds a
 * value outside the pattern, the run's screen flagged nothing but too many failing entries, its values exact and
 * judged as they came), and only where the round's most costly course ({@link #cost}) is within what the search may
 * spend; an entry that would have to be recomputed alone stops it (it could not settle within that bound). Where
 * it stops, the search's lower bound stands.
 */
final class CountingRound {

    private static final Logger LOG = LoggerFactory.getLogger(CountingRound.class);

    private CountingRound() {}

    /**
     * Whether the round is taken over the last run of a search that ran out: where it {@link #applies}, and its most
     * costly course ({@link #cost}) is within what the search may spend ({@link Culprits#budget}).
     *
     * @param evaluated per input, how many of its groups of columns the run evaluated (absent: its pass not begun)
     */
    static boolean taken(TwoSidedRun last, LocatedLines located, Map<String, Integer> evaluated) {
        if (!applies(last, located)) {
            LOG.debug("{}: no count of every entry: a located line or the screen saw a value outside the pattern, or"
                    + " the values are not exact and judged as they came", last.out());
            return false;
        }
        double cost = cost(last, evaluated);
        double budget = Culprits.budget(last);
        LOG.debug("{}: counting every entry costs at most {} evaluations, against {} the search may spend",
                last.out(), Math.round(cost), Math.round(budget));
        return cost <= budget;
    }

    /**
     * Whether the last run of a search that ran out may be counted: no located line holds a value outside the
     * pattern; the run's screen sent back nothing but entries (too many to recompute alone), none of them needing an
     * exact analytic value; and its entries were judged as they came, on exact analytic values, none left out at a
     * kink (the entries it sent on are then all that is left to judge).
     */
    static boolean applies(TwoSidedRun last, LocatedLines located) {
        TwoSidedScreen screen = last.screen();
        if (located.hasExtras() || screen.flagged() || screen.needsExact() != null) {
            return false;
        }
        return last.entries().stream().allMatch(e -> e.tallies() != null && !e.values().compact()
                && e.kinks().isEmpty());
    }

    /**
     * What the round costs at most, in forward evaluations (a backward pass counting
     * {@link ColouringTuning#BACKWARD_COST}): the groups of columns the run did not evaluate; the halves
     * ({@link SplitRests#halves}) of every group of rows and of columns that holds an entry the run sent on, and of
     * every group where some group of columns was not evaluated (its entries could lie anywhere); and the probes of
     * {@link FinerSteps} along each such group of columns.
     *
     * @param evaluated per input, how many of its groups of columns the run evaluated (absent: its pass not begun)
     */
    static double cost(TwoSidedRun last, Map<String, Integer> evaluated) {
        int points = last.points();
        double cost = 0;
        boolean unseen = false;
        for (Entries e : last.entries()) {
            int groups = columnGroups(last, e).length;
            int taken = evaluated.getOrDefault(e.name(), 0);
            cost += (double) points * (groups - taken);
            unseen |= taken < groups;
        }
        int[][] rows = last.rowGroups().groups();
        BitSet rowGroups = unseen ? all(rows.length) : new BitSet();
        int[] rowGroupOf = groupOf(rows, last.pattern().rows());
        for (Entries e : last.entries()) {
            int[][] columns = columnGroups(last, e);
            BitSet columnGroups = unseen ? all(columns.length) : new BitSet();
            if (!unseen) {
                int[] columnGroupOf = groupOf(columns, Math.toIntExact(Flat.size(e.input().shape())));
                for (EntryValues.SentOn s : e.values().sentOnEntries()) {
                    rowGroups.set(rowGroupOf[s.row()]);
                    columnGroups.set(columnGroupOf[s.col()]);
                }
            }
            cost += columnGroups.stream().mapToDouble(g -> points * halves(columns[g].length)
                    + TwoSidedTuning.FINER_FORWARDS).sum();
        }
        return cost + rowGroups.stream().mapToDouble(g -> ColouringTuning.BACKWARD_COST * halves(rows[g].length))
                .sum();
    }

    /** The halves of a group, or none for a group of one line, whose entries have no rests. */
    private static int halves(int members) {
        return members > 1 ? SplitRests.halves(members) : 0;
    }

    private static BitSet all(int n) {
        BitSet b = new BitSet(n);
        b.set(0, n);
        return b;
    }

    /** Each line's group, for lines 0 … n − 1. */
    private static int[] groupOf(int[][] groups, int n) {
        int[] of = new int[n];
        for (int g = 0; g < groups.length; g++) {
            for (int l : groups[g]) {
                of[l] = g;
            }
        }
        return of;
    }

    /** Input e's groups of columns in the run: as its pass drew them, or as it would have. */
    private static int[][] columnGroups(TwoSidedRun last, Entries e) {
        GroupBatches.Groups taken = last.columns().get(e.name());
        return taken != null ? taken.lines()
                : LocatedLines.isolate(last.pattern().columnGroups(e.input()), last.located().columns(e.name()));
    }

    /** The round's run: the last run's entries, groups and screens, with a screen of its own that counts. */
    static TwoSidedRun start(TwoSidedRun last) {
        TwoSidedRun run = new TwoSidedRun(last.target(), last.settings(), last.sides(), last.pattern(), last.out(),
                last.threads(), last.batch(), last.located(), last.rowGroups(), last.entries(), last.screens(),
                new LinkedHashMap<>(last.columns()), new TwoSidedScreen());
        run.screen().countAtFinerSteps();
        return run;
    }

    /**
     * The round's column passes: each input's groups the last run did not evaluate, evaluated; every entry it sent
     * on screened again on its kept value ({@link ColumnPass#retake}); an input whose pass had not begun, taken whole.
     * The phases after (the rests, the finer steps, the report) are the run's own.
     *
     * @param evaluated per input, how many of its groups of columns the last run evaluated
     */
    static void take(TwoSidedRun run, Map<String, Integer> evaluated) {
        for (Entries e : run.entries()) {
            if (!run.screen().clean()) {
                return;
            }
            GroupBatches.Groups groups = run.columns().get(e.name());
            if (groups == null) {
                run.columns().put(e.name(), ColumnPass.take(run, e).groups());
                continue;
            }
            int[] again = IntStream.range(evaluated.getOrDefault(e.name(), 0), groups.lines().length).toArray();
            ColumnPass.retake(run, e, again, e.values().sentOnEntries());
        }
    }
}
