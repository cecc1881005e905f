package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.ColouringTuning;
import dev.gradcheck.check.colouring.CompressedJacobians;
import dev.gradcheck.check.colouring.PatternProbe;
import dev.gradcheck.check.colouring.Sides;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.check.numeric.FiniteDifferences;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.spec.MemoryBudget;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Full mode at the sizes layers run at: both sides of the Jacobian compressed, neither computed line by line. A
 * guessed pattern of windows ({@link PatternProbe}) groups the output rows that share no input element into one
 * backward pass each, and the input columns that share no output element into one directional difference each
 * ({@link WindowPattern}); every entry inside the pattern is read off its row's backward pass (divided by the row's
 * weight) and off its column's difference (divided by the column's applied weight), and judged as
 * {@link CompressedJacobians} judges an entry against a known side: by the one per-entry rule against the other
 * side's value, with what is left of each evaluation once that entry's share is taken away judged as the value of
 * the strictest other member, and every value outside the pattern judged against zero. Everything at a quarter of
 * the tolerance: any entry that would not pass sends the target back to the one-sided path, whose values are the
 * dense check's where it disagrees. Why a wrong backward cannot pass, and why a wrong guess costs only evaluations:
 * docs/checking.md ("Both sides compressed").
 *
 * <p>Memory is the pattern's entries, a double and a float each, and one batch of evaluations: never an m×n block.
 */
public final class TwoSidedCompression {

    /** What every round's run shares, as {@link #attempt} planned it. */
    private final TwoSidedRun.Setup setup;
    /** How the plan found the analytic values to fit: compactly or not, and whether exact ones fit at all. */
    private final RunMemory.Holding holding;
    /** This round's run: what each phase reads and fills in. */
    private final TwoSidedRun run;
    private double analyticSeconds;
    private final Map<String, Double> numericalSeconds = new LinkedHashMap<>();
    /** Whether every input's column pass was taken to its end (the screen clean after them). */
    private boolean columnPassesTaken;
    /** Per input whose column pass began, how many of its groups of columns it evaluated before its screen stopped. */
    private final Map<String, Integer> columnGroupsEvaluated = new LinkedHashMap<>();
    /** The run whose entries this round shares, evaluating only the groups its lines touch; else null. */
    private final TwoSidedCompression over;
    /** A first run's values as rounds over it need them ({@link TouchedGroups.First}), once a round is taken. */
    private TouchedGroups.First kept;

    private TwoSidedCompression(TwoSidedRun.Setup setup, RunMemory.Holding holding, LocatedLines located,
                                double analyticSeconds, boolean compact) {
        this(setup, holding, TwoSidedRun.start(setup, located, compact ? holding.exactShare() : 0), analyticSeconds,
                null);
    }

    private TwoSidedCompression(TwoSidedRun.Setup setup, RunMemory.Holding holding, TwoSidedRun run,
                                double analyticSeconds, TwoSidedCompression over) {
        this.setup = setup;
        this.holding = holding;
        this.run = run;
        this.analyticSeconds = analyticSeconds;
        this.over = over;
    }

    /** Lets go of this run's entries, and of the run's it shares them with: it is not read again. */
    private void release() {
        run.entries().clear();
        if (over != null) {
            over.release();
        }
    }

    /**
     * This first run again with these lines located, evaluating only the groups they touch ({@link TouchedGroups});
     * null where the first run's values of the touched groups could not be certified (the whole run is then taken
     * again).
     */
    private TwoSidedCompression touched(LocatedLines lines) {
        TwoSidedCompression c = new TwoSidedCompression(setup, holding, TouchedGroups.start(run, lines), analyticSeconds,
                this);
        Meter start = Meter.timing();
        kept = kept == null ? TouchedGroups.First.of(run) : kept;
        if (!TouchedGroups.take(c.run, kept)) {
            return null;
        }
        c.analyticSeconds += start.seconds();
        return c;
    }

    /**
     * The same check again, the located lines taken alone: this run's entries let go of first. With exact values
     * where they fit, else compactly as the plan allowed.
     */
    private TwoSidedCompression again(LocatedLines lines) {
        release(); // a run's entries are as large as the check's: one held at a time
        return new TwoSidedCompression(setup, holding, lines, analyticSeconds, !holding.exactFits());
    }

    /**
     * This run checked: where its analytic values were held compactly and a rounded one could not settle an entry,
     * the same run again with exact values (its evaluations counted too), whose result is the one without compact
     * values by construction; where exact values do not fit, no result, but why and what they would need.
     */
    private static Checked checked(TwoSidedCompression c) {
        List<GradientResult> rows = c.check();
        String needsExact = c.run.screen().needsExact();
        if (needsExact == null) {
            return new Checked(c, rows, null);
        }
        if (!c.holding.exactFits()) {
            return new Checked(c, null, Attempt.OVER_BUDGET + ": " + needsExact + "; with exact analytic values, its"
                    + " pattern's entries and one thread's evaluations would need "
                    + MemoryBudget.human(c.holding.exactBytes()));
        }
        TwoSidedCompression exact = c.again(c.run.located());
        return new Checked(exact, exact.check(), null);
    }

    /**
     * A run and what it gave.
     *
     * @param overBudget why it gave nothing where it needed exact values that do not fit, else null
     */
    private record Checked(TwoSidedCompression run, List<GradientResult> rows, String overBudget) {
        Attempt declined() {
            return new Attempt(null, overBudget, null, run.holding.exactBytes());
        }
    }

    /**
     * What trying this path gave: the rows, or null with why it was declined or what the screen sent back.
     *
     * @param needs where it was declined over the memory budget, the bytes its pattern's entries and one thread's
     *              evaluations need (the least budget under which it would run); else 0
     */
    public record Attempt(List<GradientResult> rows, String declined, TwoSidedScreen screen, long needs) {

        public Attempt(List<GradientResult> rows, String declined, TwoSidedScreen screen) {
            this(rows, declined, screen, 0);
        }

        /** How a decline for the memory budget begins ({@link #why} names it in a refusal). */
        static final String OVER_BUDGET = "over the memory budget";

        public boolean passed() {
            return rows != null && rows.stream().allMatch(r -> r.verdict().passed());
        }

        /**
         * Why the target was not settled here, in a phrase, for the refusal of a target whose dense blocks do not
         * fit: the gate that declined it (no window pattern, several outputs, its pattern over the memory budget
         * with what it needs), or what the run's screen could not settle.
         */
        public String why() {
            if (declined != null) {
                return declined;
            }
            return screen != null && screen.first() != null ? screen.first() : "a block disagrees";
        }
    }

    /**
     * When the path is worth taking: the one-sided path's known side costs at least {@code minKnownCost} (in
     * forward evaluations) and this path at most {@code maxShare} of it.
     *
     * @param locate whether to look for the lines behind what the screen sends back that single entries cannot
     *               settle ({@link Culprits}), rather than leave them to the paths that need dense blocks (set where
     *               those do not fit)
     * @param touchedOnly whether a round of locating after a first run evaluates only the groups its lines touch
     *                    ({@link TouchedGroups}), rather than the whole run again (tests compare the two)
     * @param counting whether, where the search runs out, every entry is counted where that is bounded
     *                 ({@link CountingRound}), rather than left at the lower bound (tests compare the two)
     */
    public record Gate(double minKnownCost, double maxShare, boolean locate, double compactShare,
                       boolean touchedOnly, boolean counting) {
        public static final Gate DEFAULT = new Gate(TwoSidedTuning.MIN_KNOWN_COST, TwoSidedTuning.MAX_SHARE, false,
                TwoSidedTuning.COMPACT_SHARE, true, true);
        /** Whatever the costs (tests, on shapes dense mode can check too). */
        public static final Gate ALWAYS = new Gate(0, Double.POSITIVE_INFINITY, false, TwoSidedTuning.COMPACT_SHARE,
                true, true);

        public Gate locating(boolean yes) {
            return new Gate(minKnownCost, maxShare, yes, compactShare, touchedOnly, counting);
        }

        /** The same gate, each round of locating taking the whole run again where {@code yes} is false. */
        public Gate touchedOnly(boolean yes) {
            return new Gate(minKnownCost, maxShare, locate, compactShare, yes, counting);
        }

        /** The same gate, leaving a search that ran out at its lower bound where {@code yes} is false. */
        public Gate counting(boolean yes) {
            return new Gate(minKnownCost, maxShare, locate, compactShare, touchedOnly, yes);
        }

        /**
         * The same gate, holding analytic values compactly ({@link CompactAnalytic}) where the exact values of the
         * entries judged as they come would take more than this share of the budget (0: always; infinite: never).
         */
        public Gate compactAbove(double share) {
            return new Gate(minKnownCost, maxShare, locate, share, touchedOnly, counting);
        }
    }

    public static Attempt attempt(CheckTarget t, Settings s, List<String> inputs, ParallelLines threads,
                           MemoryBudget budget, Gate gate) {
        Meter start = Meter.timing();
        Plan plan = plan(t, s, inputs, budget, gate);
        if (plan.declined() != null) {
            return new Attempt(null, plan.declined(), null, plan.needs());
        }
        Checked checked = checked(new TwoSidedCompression(new TwoSidedRun.Setup(t, s, plan.sides(), plan.pattern(),
                threads, plan.batchThreads()), plan.holding(), new LocatedLines(), start.seconds(),
                plan.holding().compact()));
        if (checked.overBudget() != null) {
            return checked.declined();
        }
        TwoSidedCompression c = checked.run();
        List<GradientResult> rows = checked.rows();
        return rows == null && gate.locate() && !c.run.screen().clean() ? locateAndRunAgain(c, gate) : c.attempt(rows);
    }

    /**
     * The rounds of locating, owned here: {@link Culprits} finds the lines behind what a run's screen sent back, and
     * the check runs again with them located, until a run settles the target or the search stops; then the entries
     * of the lines located are judged alone, and where some fail, every entry counted where that is bounded
     * ({@link CountingRound}).
     */
    private static Attempt locateAndRunAgain(TwoSidedCompression first, Gate gate) {
        Culprits search = Culprits.searchFrom(first.run);
        TwoSidedCompression c = first;
        boolean touchedOnly = gate.touchedOnly() && TouchedGroups.applies(first.run, first.columnPassesTaken);
        for (int round = 0; round < TwoSidedTuning.MAX_ROUNDS && search.locate(c.run); round++) {
            TwoSidedCompression touched = touchedOnly ? first.touched(search.located()) : null;
            touchedOnly = touched != null;
            List<GradientResult> rows;
            if (touched != null) {
                c = touched;
                rows = c.finish();
            } else {
                Checked checked = checked(c.again(search.located()));
                if (checked.overBudget() != null) {
                    return checked.declined();
                }
                c = checked.run();
                rows = checked.rows();
            }
            if (rows != null || c.run.screen().clean()) {
                return c.attempt(rows);
            }
        }
        return ranOut(c, search, gate);
    }

    /**
     * The search ran out before every evaluation was explained: the located lines' entries judged alone, then, where
     * some fail, counted over the whole block where that is bounded ({@link #counting}), else the lower bound.
     */
    private static Attempt ranOut(TwoSidedCompression c, Culprits search, Gate gate) {
        List<GradientResult> failures = search.failuresFound(c.run);
        if (failures == null) {
            return atFinerSteps(c);
        }
        TwoSidedCompression counting = gate.counting() ? c.counting(search.located()) : null;
        List<GradientResult> counted = counting == null ? null : counting.finish();
        // the located entries judged alone failed, so a count that passed would contradict them: the bound stands
        if (counted != null && counted.stream().anyMatch(r -> !r.verdict().passed())) {
            return counting.attempt(counted);
        }
        return (counting != null ? counting : c).attempt(failures); // its screen: why the count stopped, if taken
    }

    /**
     * Where the search ran out with entries of its lines failing alone, the round that counts every failing entry
     * over this run's values ({@link CountingRound}), its column passes taken: null where it does not apply or could
     * cost more than the search may spend, decided before it evaluates anything. A round of touched groups
     * ({@code over}) is not counted: its column passes were retaken in part, not as one pass from the first group.
     */
    private TwoSidedCompression counting(LocatedLines located) {
        if (over != null || !CountingRound.taken(run, located, columnGroupsEvaluated)) {
            return null;
        }
        Meter start = Meter.timing();
        TwoSidedCompression c = new TwoSidedCompression(setup, holding, CountingRound.start(run), analyticSeconds,
                this);
        c.numericalSeconds.putAll(numericalSeconds);
        CountingRound.take(c.run, columnGroupsEvaluated);
        c.analyticSeconds += start.seconds();
        return c;
    }

    /**
     * Where every entry of the located lines passed alone, the entries sent back may fail only by their
     * differences' own error (a forward periodic at the step's scale: its truncation): the check once more, each
     * such entry's rests settled without it ({@link SplitRests}) and the entry judged at its most precise step
     * ({@link FinerSteps}), passed, unresolvable or failed as the dense judge does. What that run cannot settle
     * leaves the refusal as it was.
     */
    private static Attempt atFinerSteps(TwoSidedCompression refused) {
        Attempt before = refused.attempt(null);
        TwoSidedCompression c = refused.again(new LocatedLines());
        c.run.screen().takeFailingAtFinerSteps();
        List<GradientResult> rows = c.check();
        return rows != null ? c.attempt(rows) : before;
    }

    /**
     * The gates a target passes before the two-sided run, in order (docs/checking.md, "When it is tried"): one
     * output, a known side worth compressing, a window pattern the probes can guess, a cost worth it, and the
     * pattern's entries beside at least one thread's batch of evaluations under the budget.
     *
     * @param declined why a gate declined, or null with the run's sides, pattern and batches held at once
     */
    private record Plan(String declined, Sides sides, WindowPattern pattern, int batchThreads, long oneThread,
                        RunMemory.Holding holding) {

        Plan(String declined, Sides sides, WindowPattern pattern, int batchThreads) {
            this(declined, sides, pattern, batchThreads, 0, RunMemory.Holding.EXACT);
        }

        /** What the pattern's entries and one thread's evaluations need where they are over the budget; else 0. */
        long needs() {
            return declined != null && declined.startsWith(Attempt.OVER_BUDGET) ? oneThread : 0;
        }
    }

    private static Plan plan(CheckTarget t, Settings s, List<String> inputs, MemoryBudget budget, Gate gate) {
        if (t.outputs().size() != 1) {
            return new Plan("several outputs: it compresses one output's Jacobian at a time; output: selects one",
                    null, null, 0);
        }
        Sides sides = Sides.of(t, s, inputs);
        String out = t.outputs().get(0);
        int points = FiniteDifferences.offsets(s.stencil()).length;
        double known = knownCost(sides, points);
        if (known < gate.minKnownCost()) {
            return new Plan("the one-sided path is cheap", sides, null, 0);
        }
        WindowPattern pattern = PatternProbe.guess(sides.analytic(), out, t.refAtX().get(out).shape(), inputs,
                inputShapes(t, inputs));
        if (pattern == null) {
            return new Plan("no window pattern: the nonzeros of the probed rows of the backward do not move through"
                    + " the inputs as windows do", sides, null, 0);
        }
        // compactly where exact values would take more than the gate's share: then counted as the run holds them
        boolean compact = RunMemory.judgedBytes(sides, out, pattern) > gate.compactShare() * budget.bytes();
        int batchThreads = RunMemory.threadsThatFit(sides, out, pattern, threads(s), budget, compact);
        long oneThread = RunMemory.bytes(sides, out, pattern, 1, compact);
        String declined = TwoSidedRun.cost(pattern, points) > gate.maxShare() * known ? "too little to gain"
                : batchThreads == 0 ? Attempt.OVER_BUDGET + ": its pattern's " + RunMemory.holds(sides, out, pattern,
                        compact) + " and one thread's evaluations would need " + MemoryBudget.human(oneThread) : null;
        return new Plan(declined, sides, pattern, batchThreads, oneThread,
                RunMemory.holding(sides, out, pattern, batchThreads, budget, compact));
    }

    /**
     * What validate asks where dense blocks do not fit: the two-sided path's gates alone, run as a check would run
     * them (the pattern probed with the backward), so that validate and check refuse the same specs; an attempt
     * declined for this reason (its {@link Attempt#why}), or null when the run would be tried.
     *
     * @return null when the path would be tried; else the declined attempt
     */
    public static Attempt declined(CheckTarget t, Settings s, List<String> inputs, MemoryBudget budget, Gate gate) {
        Plan plan = plan(t, s, inputs, budget, gate);
        return plan.declined() == null ? null : new Attempt(null, plan.declined(), null, plan.needs());
    }

    /** What this run gave, as an attempt: its rows, or what its screen sent back. */
    private Attempt attempt(List<GradientResult> rows) {
        TwoSidedScreen screen = run.screen();
        return new Attempt(rows, rows == null && screen.clean() ? "a block does not pass" : null, screen);
    }

    private static int threads(Settings s) {
        return Math.max(1, s.threads());
    }

    private static Map<String, long[]> inputShapes(CheckTarget t, List<String> inputs) {
        Map<String, long[]> shapes = new LinkedHashMap<>();
        inputs.forEach(in -> shapes.put(in, t.refInputs().get(in).shape()));
        return shapes;
    }

    /** What the one-sided path's known side costs: the cheaper of every row's backward and every column's stencil. */
    private static double knownCost(Sides sides, int points) {
        double backwards = 0;
        for (String o : sides.analytic().units()) {
            backwards += ColouringTuning.BACKWARD_COST * sides.analytic().lineCount(o);
        }
        double forwards = 0;
        for (String in : sides.numerical().units()) {
            forwards += (double) points * sides.numerical().lineCount(in);
        }
        return Math.min(backwards, forwards);
    }

    /**
     * One run, phase after phase, each stopping the run where the screen sends back what single entries cannot
     * settle: the rows' backward passes, the screens their scale decides, the values outside the pattern, each
     * input's column pass, the rests their owners' own error spoils, the entries near the tolerance at finer steps, the entries sent back recomputed alone, and
     * the report.
     *
     * @return the rows, or null when the screen sent back what single entries cannot settle, or a diagnosis is needed
     */
    private List<GradientResult> check() {
        Meter start = Meter.timing();
        List<RowPass.Outside> outside = RowPass.attribute(run);
        run.decideScreens();
        RowPass.judgeOutside(run, outside);
        analyticSeconds += start.seconds();
        for (Entries e : run.entries()) {
            if (run.screen().clean()) {
                Meter begin = Meter.timing();
                ColumnPass.Taken taken = ColumnPass.take(run, e);
                run.columns().put(e.name(), taken.groups());
                columnGroupsEvaluated.put(e.name(), taken.evaluated());
                numericalSeconds.put(e.name(), begin.seconds());
            }
        }
        columnPassesTaken = run.screen().clean();
        return finish();
    }

    /**
     * The run's phases after its column passes, each while the screen is clean: the rests their owners' own error
     * spoils, the entries near the tolerance at finer steps, the entries sent back recomputed alone, the report.
     */
    private List<GradientResult> finish() {
        if (run.screen().clean()) {
            SplitRests.settle(run);
        }
        if (run.screen().clean()) {
            FinerSteps.resolve(run);
        }
        if (run.screen().clean()) {
            Recompute.run(run);
        }
        return run.screen().clean() ? Report.rows(run, analyticSeconds, numericalSeconds) : null;
    }
}
