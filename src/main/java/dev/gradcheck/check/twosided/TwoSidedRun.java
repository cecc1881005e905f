package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.ColouringTuning;
import dev.gradcheck.check.colouring.Screen;
import dev.gradcheck.check.colouring.Sides;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.check.numeric.FiniteDifferences;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of the two-sided check, as data: the target and its sides, the guessed pattern, the groups of rows and
 * (once each input's column pass has taken them) of columns, the entries with their values and bounds, each input's
 * screen, what the screen sent back, and the lines located alone. {@link TwoSidedCompression} makes one per round of
 * locating and hands it to each phase in turn ({@link RowPass}, {@link ColumnPass}, {@link FinerSteps},
 * {@link Recompute}, {@link Culprits}); a phase reads it and fills in what it found, and never calls back into the
 * run's orchestrator.
 *
 * @param out       the one output checked
 * @param batch     evaluations held at once: a batch per thread that fits the memory budget
 * @param entries   per checked input, in order: its position in this list is the index a flagged entry names
 * @param screens   per input, in the order of {@code entries}, the screen its entries are judged by, decided once
 *                  the row pass gave the input's scale
 * @param columns   each input's groups of columns and their weights, once its column pass has taken them
 * @param screen    what the screen sent back
 */
record TwoSidedRun(CheckTarget target, Settings settings, Sides sides, WindowPattern pattern, String out,
                   ParallelLines threads, int batch, LocatedLines located, RowGroups rowGroups, List<Entries> entries,
                   List<Screen> screens, Map<String, GroupBatches.Groups> columns, TwoSidedScreen screen) {

    /**
     * What every round's run shares: the target, its sides and the guessed pattern, and the threads with how many
     * of their batches are held at once (a batch per thread that fits the memory budget).
     */
    record Setup(CheckTarget target, Settings settings, Sides sides, WindowPattern pattern, ParallelLines threads,
                 int batchThreads) {}

    /** A fresh run with these lines located: its groups of rows drawn, its entries laid out (values not yet taken). */
    static TwoSidedRun start(Setup setup, LocatedLines located, double exactShare) {
        CheckTarget t = setup.target();
        WindowPattern pattern = setup.pattern();
        String out = t.outputs().get(0);
        RowGroups rows = RowGroups.of(LocatedLines.isolate(pattern.rowGroups(), located.rows()), t.magnitudes(out),
                setup.sides().analytic().weightBits(out), setup.settings().seed(), out);
        TwoSidedRun run = new TwoSidedRun(t, setup.settings(), setup.sides(), pattern, out, setup.threads(),
                TwoSidedTuning.BATCH_PER_THREAD * setup.batchThreads(), located, rows, new ArrayList<>(),
                new ArrayList<>(), new LinkedHashMap<>(), new TwoSidedScreen());
        run.layOut(exactShare);
        return run;
    }

    /**
     * Where each row's entries of each input go: the pattern's windows, row after row, then the extras.
     *
     * @param exactShare where above 0, the analytic values of the inputs judged as they come are held compactly,
     *                   this share of them at most exactly ({@link CompactAnalytic})
     */
    private void layOut(double exactShare) {
        for (WindowPattern.Input x : pattern.inputs()) {
            int[] start = new int[pattern.rows() + 1];
            for (int p = 0; p < pattern.rows(); p++) {
                start[p + 1] = Math.addExact(start[p], (int) WindowPattern.size(pattern.window(p, x)));
            }
            LocatedLines.Extras extras = located.extras(x.name(), Flat.size(x.shape()));
            int n = Math.addExact(start[pattern.rows()], extras.size());
            boolean held = held(sides, out, x.name());
            EntryValues values = new EntryValues(start, n, held, held ? 0 : exactShare);
            entries.add(new Entries(entries.size(), x, start, values,
                    (NumericalError.Block) sides.judging().errors(out, x.name()), extras, new Kinks(),
                    held ? null : new GroupTallies(sides.judging().rule(out, x.name(), 0))));
        }
    }

    /**
     * Whether input {@code in}'s numerical values are held until the report ({@link EntryValues}): where its rule
     * reads the block's scale, known only once every value is.
     */
    static boolean held(Sides sides, String out, String in) {
        return !sides.judging().ruleIgnoresScale(out, in);
    }

    /** Each input's screen, by the rule at the scale of its analytic values: once the row pass has taken them. */
    void decideScreens() {
        screens.clear();
        for (Entries e : entries) {
            screens.add(new Screen(sides.judging().rule(out, e.name(), e.values().largestAnalytic())));
        }
    }

    Entries entries(int index) {
        return entries.get(index);
    }

    /** The screen input {@code index}'s entries are judged by. */
    Screen screen(int index) {
        return screens.get(index);
    }

    /** The rule the report judges input {@code index}'s block by: at the scale of its numerical values. */
    Tolerance blockRule(int index) {
        Entries e = entries.get(index);
        return sides.judging().rule(out, e.name(), e.values().largestNumerical());
    }

    /** The points of the run's stencil: what one directional difference costs, in forward evaluations. */
    int points() {
        return FiniteDifferences.offsets(settings.stencil()).length;
    }

    /** What a run over this pattern costs: a backward pass per row group, a stencil per column group. */
    static double cost(WindowPattern pattern, int points) {
        double c = ColouringTuning.BACKWARD_COST * pattern.rowGroups().length;
        for (WindowPattern.Input x : pattern.inputs()) {
            c += (double) points * pattern.columnGroups(x).length;
        }
        return c;
    }
}
