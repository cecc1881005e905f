package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.ColouringTuning;
import dev.gradcheck.check.colouring.CompressedJacobians;
import dev.gradcheck.check.colouring.Lightest;
import dev.gradcheck.check.colouring.PatternProbe;
import dev.gradcheck.check.colouring.Screen;
import dev.gradcheck.check.colouring.Sides;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.dense.BlockJudge;
import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.check.numeric.FiniteDifferences;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.KinkDetector;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.numeric.MostPreciseStep;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.check.twosided.TwoSidedScreen.Flagged;
import dev.gradcheck.check.twosided.TwoSidedScreen.Suspect;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
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

    private final CheckTarget t;
    private final Settings s;
    private final Sides sides;
    private final WindowPattern pattern;
    private final String out;
    private final ParallelLines threads;
    /**
     * How many threads' batches of evaluations are held at once: the run's threads, or fewer to fit the budget (set
     * by {@link #attempt}, which weighed it).
     */
    private int batchThreads = 1;
    /** Lines taken alone, and the entries outside the pattern they hold ({@link Culprits}). */
    private final LocatedLines located;
    /** Per checked input, in order: its position in this list is the index a {@link Flagged} entry names. */
    private final List<Entries> entries = new ArrayList<>();
    /** Per input, in the order of {@link #entries}, the screen its entries are judged by. */
    private final List<Screen> screens = new ArrayList<>();
    private final RowGroups rowGroups;
    private final TwoSidedScreen screen = new TwoSidedScreen();
    /** Each input's groups of columns and their weights, once its directional differences are taken. */
    private final Map<String, GroupBatches.Groups> columnGroups = new LinkedHashMap<>();
    private double analyticSeconds;
    private final Map<String, Double> numericalSeconds = new LinkedHashMap<>();

    /**
     * One input's entries inside the pattern, row after row, each row's in ascending column order: both sides'
     * values, the rule the screen judges them by and their error bounds.
     */
    record Entries(int index, WindowPattern.Input input, int[] rowStart, EntryValues values,
                   NumericalError.Block errors, LocatedLines.Extras extras, Kinks kinks) {

        /** Where extra (p, l) is stored: after the pattern's entries. */
        int extraAt(int p, int l) {
            return rowStart[rowStart.length - 1] + extras.index(p, l);
        }
    }

    /** Each row's weight in its backward pass and the strictest other member of its group (-1: alone). */
    record RowGroups(int[][] groups, double[][] weights, double[] weightOf, int[] strictestOther) {}

    private TwoSidedCompression(CheckTarget t, Settings s, Sides sides, WindowPattern pattern,
                                ParallelLines threads, LocatedLines located) {
        this.t = t;
        this.s = s;
        this.sides = sides;
        this.pattern = pattern;
        this.out = t.outputs().get(0);
        this.threads = threads;
        this.located = located;
        this.rowGroups = rowGroups(LocatedLines.isolate(pattern.rowGroups(), located.rows()), pattern.rows(),
                sides.analytic().weightBits(out), s.seed(), out);
    }

    /** Lets go of this run's entries: it is not read again. */
    void release() {
        entries.clear();
    }

    /** The same check again, the located lines taken alone. */
    TwoSidedCompression again(LocatedLines lines) {
        TwoSidedCompression c = new TwoSidedCompression(t, s, sides, pattern, threads, lines);
        c.batchThreads = batchThreads;
        c.analyticSeconds = analyticSeconds;
        return c;
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
     */
    public record Gate(double minKnownCost, double maxShare, boolean locate) {
        public static final Gate DEFAULT = new Gate(TwoSidedTuning.MIN_KNOWN_COST, TwoSidedTuning.MAX_SHARE, false);
        /** Whatever the costs (tests, on shapes dense mode can check too). */
        public static final Gate ALWAYS = new Gate(0, Double.POSITIVE_INFINITY, false);

        public Gate locating(boolean yes) {
            return new Gate(minKnownCost, maxShare, yes);
        }
    }

    public static Attempt attempt(CheckTarget t, Settings s, List<String> inputs, ParallelLines threads,
                           MemoryBudget budget, Gate gate) {
        Meter start = Meter.timing();
        Plan plan = plan(t, s, inputs, budget, gate);
        if (plan.declined() != null) {
            return new Attempt(null, plan.declined(), null, plan.needs());
        }
        TwoSidedCompression c = new TwoSidedCompression(t, s, plan.sides(), plan.pattern(), threads,
                new LocatedLines());
        c.batchThreads = plan.batchThreads();
        c.analyticSeconds = start.seconds();
        List<GradientResult> rows = c.run();
        return rows == null && gate.locate() && !c.screen.clean() ? locateAndRunAgain(c) : c.attempt(rows);
    }

    /**
     * The rounds of locating, owned here: {@link Culprits} finds the lines behind what a run's screen sent back, and
     * the check runs again with them located, until a run settles the target or the search stops; then the entries
     * of the lines located are judged alone.
     */
    private static Attempt locateAndRunAgain(TwoSidedCompression first) {
        Culprits search = Culprits.searchFrom(first);
        TwoSidedCompression c = first;
        for (int round = 0; round < TwoSidedTuning.MAX_ROUNDS && search.locate(c); round++) {
            TwoSidedCompression before = c;
            c = c.again(search.located());
            before.release(); // a run's entries are as large as the check's: one held at a time
            List<GradientResult> rows = c.run();
            if (rows != null || c.screen().clean()) {
                return c.attempt(rows);
            }
        }
        return c.attempt(search.failuresFound(c));
    }

    /**
     * The gates a target passes before the two-sided run, in order (docs/checking.md, "When it is tried"): one
     * output, a known side worth compressing, a window pattern the probes can guess, a cost worth it, and the
     * pattern's entries beside at least one thread's batch of evaluations under the budget.
     *
     * @param declined why a gate declined, or null with the run's sides, pattern and batches held at once
     */
    private record Plan(String declined, Sides sides, WindowPattern pattern, int batchThreads) {

        /** What the pattern's entries and one thread's evaluations need where they are over the budget; else 0. */
        long needs() {
            return declined != null && declined.startsWith(Attempt.OVER_BUDGET) ? bytes(pattern, 1) : 0;
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
        int batchThreads = pattern == null ? 0 : threadsThatFit(pattern, threads(s), budget);
        String declined = pattern == null ? "no window pattern: the nonzeros of the probed rows of the backward do"
                + " not move through the inputs as windows do"
                : cost(pattern, points) > gate.maxShare() * known ? "too little to gain"
                : batchThreads == 0 ? Attempt.OVER_BUDGET + ": its pattern's entries and one thread's evaluations"
                        + " would need " + MemoryBudget.human(bytes(pattern, 1)) : null;
        return new Plan(declined, sides, pattern, batchThreads);
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
    public Attempt attempt(List<GradientResult> rows) {
        return new Attempt(rows, rows == null && screen.clean() ? "a block does not pass" : null, screen);
    }

    private static int threads(Settings s) {
        return Math.max(1, s.threads());
    }

    /**
     * How many threads' batches of evaluations fit the budget beside the pattern's entries: the run's threads, or
     * fewer (a batch per thread held at once), or 0 when not even one's do. Fewer batches only slow the run; the
     * evaluations and their values are the same, so validate's estimate of one batch and the check agree.
     */
    private static int threadsThatFit(WindowPattern pattern, int threads, MemoryBudget budget) {
        for (int k = threads; k >= 1; k--) {
            if (budget.fits(bytes(pattern, k))) {
                return k;
            }
        }
        return 0;
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

    /** What this path costs: a backward pass per row group, a stencil per column group. */
    static double cost(WindowPattern pattern, int points) {
        double c = ColouringTuning.BACKWARD_COST * pattern.rowGroups().length;
        for (WindowPattern.Input x : pattern.inputs()) {
            c += (double) points * pattern.columnGroups(x).length;
        }
        return c;
    }

    /** A double and a float per entry inside the pattern ({@link Values}), and a batch of evaluations. */
    static long bytes(WindowPattern pattern, int threads) {
        long entries = 0;
        long vectors = pattern.rows();
        for (WindowPattern.Input x : pattern.inputs()) {
            for (int p = 0; p < pattern.rows(); p++) {
                entries += WindowPattern.size(pattern.window(p, x));
            }
            vectors += Flat.size(x.shape());
        }
        return (Double.BYTES + Float.BYTES) * entries
                + (long) TwoSidedTuning.BATCH_PER_THREAD * threads * vectors * Double.BYTES;
    }

    private static RowGroups rowGroups(int[][] groups, int rows, int bits, long seed, String out) {
        double[][] weights = new double[groups.length][];
        double[] weightOf = new double[rows];
        int[] strictestOther = new int[rows];
        for (int g = 0; g < groups.length; g++) {
            int[] members = groups[g];
            weights[g] = members.length == 1 ? new double[] {1}
                    : CompressedJacobians.weights(seed, "two-sided:rows:" + out + ":" + g, members.length, bits);
            Lightest light = Lightest.of(weights[g]);
            for (int k = 0; k < members.length; k++) {
                weightOf[members[k]] = weights[g][k];
                strictestOther[members[k]] = members.length == 1 ? -1 : members[light.otherThan(k)];
            }
        }
        return new RowGroups(groups, weights, weightOf, strictestOther);
    }

    /** The rows, or null when the screen sent back what single entries cannot settle, or a diagnosis is needed. */
    List<GradientResult> run() {
        layOut();
        Meter start = Meter.timing();
        RowPass rows = new RowPass(this);
        GroupBatches.run(new GroupBatches.Groups(sides.analytic(), out, rowGroups.groups(), rowGroups.weights()),
                batch(), screen, threads, rows::attribute);
        screens.clear();
        for (Entries e : entries) {
            screens.add(new Screen(sides.judging().rule(out, e.input().name(), e.values().largestAnalytic())));
        }
        rows.judgeOutside();
        analyticSeconds += start.seconds();
        for (Entries e : entries) {
            if (screen.clean()) {
                Meter begin = Meter.timing();
                new ColumnPass(this, e).run();
                numericalSeconds.put(e.input().name(), begin.seconds());
            }
        }
        if (!screen.clean()) {
            return null;
        }
        new SplitRests(this).settle(screen.spoiled());
        if (!screen.clean()) {
            return null;
        }
        new FinerSteps(this).resolve(screen.near());
        if (!screen.clean()) {
            return null;
        }
        recompute();
        return screen.clean() ? rows() : null;
    }

    /**
     * Each entry sent back, recomputed as the dense check computes it: its row by one backward pass, its column by the
     * stencil along it alone, probed for kinks and taken at its most precise step ({@link MostPreciseStep}). What
     * its row's backward pass and its column's difference held beyond those values is what the other members of its
     * groups contributed there, which the pattern says is zero: judged so, as the strictest other member's value, at
     * a quarter of the rule. A contribution that is not zero is a value outside the guessed pattern, and a kink is
     * for the dense path's probes: either sends the target on.
     */
    private void recompute() {
        Map<Integer, Map<String, double[]>> rows = new java.util.HashMap<>();
        Map<String, List<Flagged>> byColumn = new LinkedHashMap<>();
        for (Flagged f : screen.entries()) {
            byColumn.computeIfAbsent(f.input() + ":" + f.col(), k -> new ArrayList<>()).add(f);
        }
        for (List<Flagged> column : byColumn.values()) {
            Entries e = entries.get(column.get(0).input());
            double[] analytic = new double[column.size()];
            for (int k = 0; k < analytic.length; k++) {
                analytic[k] = rows.computeIfAbsent(column.get(k).row(), p -> sides.analytic().evaluate(out,
                        new int[] {p}, new double[] {1})).get(e.input().name())[column.get(k).col()];
            }
            if (!resolveColumn(e, column, analytic)) {
                return;
            }
        }
    }

    /** One column's flagged entries, their numerical side taken along the column alone, as the dense judge does. */
    private boolean resolveColumn(Entries e, List<Flagged> column, double[] analytic) {
        int col = column.get(0).col();
        int[] flatRows = column.stream().mapToInt(Flagged::row).toArray();
        Alone alone = alone(e.index(), col, flatRows, analytic);
        boolean wrongAtKink = alone.probe().kind() == KinkDetector.Kind.WRONG_AT_KINK;
        for (int k = 0; k < flatRows.length; k++) {
            Flagged f = column.get(k);
            double n = alone.probe().values()[k];
            if (alone.probe().kinks()[k]) {
                if (!othersContributeNothingAtKink(e, f, analytic[k])) {
                    return false;
                }
                if (!wrongAtKink) { // left out, as the dense judge leaves it out: the backward gives a subgradient
                    e.values().exact(f.at(), analytic[k], analytic[k]);
                    e.kinks().add(f.at(), col);
                    continue;
                }
                e.values().exact(f.at(), analytic[k], n); // no subgradient: judged on its central difference
                alone.keep(e, k);
                continue;
            }
            if (Double.isNaN(n) || !othersContributeNothing(e, f, analytic[k], n)) {
                screen.flag(EntryNames.entry(out, f.row(), e.input().name(), col) + " could not be recomputed alone");
                return false;
            }
            e.values().exact(f.at(), analytic[k], n);
            alone.keep(e, k);
        }
        return true;
    }

    /**
     * Entries of one column at these rows, as the dense judge takes them: along the column alone, probed for kinks,
     * and each beyond half the rule at its most precise step.
     */
    record Alone(int col, int[] rows, KinkDetector.Probe probe, MostPreciseStep.Estimate[] precise, double h) {

        /**
         * Row k into the input's entries: its value and bound at the more precise step where one was taken, else
         * the bound the probe measured.
         */
        void keep(Entries e, int k) {
            if (precise[k] != null && precise[k].step() != h) {
                e.errors().atPreciseStep(rows[k], col, precise[k].bound());
                e.values().atPreciseStep(rows[k], col, precise[k].value());
            } else if (probe.errors()[k] > 0) {
                e.errors().measured(rows[k], col, probe.errors()[k]);
            }
        }
    }

    /** Column {@code col} of input {@code index} at these rows, alone ({@link Alone}); kinks are the probe's. */
    Alone alone(int index, int col, int[] flatRows, double[] analytic) {
        Entries e = entries.get(index);
        String in = e.input().name();
        NumericalDerivative d = sides.numerical().derivative(in);
        KinkDetector.Line line = new BlockJudge.Columns(d, in, out).line(col);
        double h = d.stepAt(in, col);
        KinkDetector.Probe probe = KinkDetector.probe(line, h, flatRows, analytic, t.scale(out), d.stencil());
        NumericalError.Block block = e.errors();
        MostPreciseStep.Estimate[] atH = new MostPreciseStep.Estimate[flatRows.length];
        for (int k = 0; k < atH.length; k++) {
            if (probe.kinks()[k]) {
                return new Alone(col, flatRows, probe, new MostPreciseStep.Estimate[flatRows.length], h);
            }
            atH[k] = MostPreciseStep.Estimate.of(probe, k, block.rounding(flatRows[k], col), h);
        }
        MostPreciseStep.Estimate[] precise = MostPreciseStep.choose(line, h,
                new MostPreciseStep.Rows(flatRows, analytic), atH, t.scale(out), d.stencil());
        return new Alone(col, flatRows, probe, precise, h);
    }

    /**
     * At a kink the column's difference alone and its group's straddle the kink with different steps, so what the
     * other members contributed cannot be read as their difference. It is taken directly instead: the group's
     * difference without this column, at this row, judged against zero as the rests are (the pattern says every
     * other member contributes nothing here). The row's side is the backward's, untouched by kinks.
     */
    private boolean othersContributeNothingAtKink(Entries e, Flagged f, double a) {
        Screen rule = entryScreen(e.index());
        int p = f.row();
        double byColumns = 0;
        if (f.otherCol() >= 0) {
            GroupBatches.Groups groups = columnGroups.get(e.input().name());
            Rest rest = Rest.without(groups.lines()[f.group()], groups.weights()[f.group()], f.col());
            double[] applied = sides.numerical().applied(e.input().name(), rest.lines(), rest.weights());
            int lightest = Lightest.of(applied).first();
            double value = sides.numerical().evaluate(e.input().name(), rest.lines(), rest.weights()).get(out)[p];
            byColumns = rule.score(0, value / applied[lightest], e.errors().at(p, rest.lines()[lightest]));
        }
        if (!(Screen.passes(byRows(e, rule, f, a)) && Screen.passes(byColumns))) {
            screen.flag("other members contribute to " + EntryNames.entry(out, p, e.input().name(), f.col())
                    + ", which sits at a kink: a value outside the guessed pattern");
            return false;
        }
        return true;
    }

    /** A column group's other members and their weights. */
    private record Rest(int[] lines, double[] weights) {
        static Rest without(int[] members, double[] weights, int col) {
            int[] lines = new int[members.length - 1];
            double[] w = new double[members.length - 1];
            for (int k = 0, j = 0; k < members.length; k++) {
                if (members[k] != col) {
                    lines[j] = members[k];
                    w[j++] = weights[k];
                }
            }
            return new Rest(lines, w);
        }
    }

    private boolean othersContributeNothing(Entries e, Flagged f, double a, double n) {
        Screen rule = entryScreen(e.index());
        int p = f.row();
        double byColumns = f.otherCol() < 0 ? 0 : rule.score(0,
                f.colWeight() * (e.values().numerical(f.at()) - n) / f.otherWeight(), e.errors().at(p, f.otherCol()));
        if (!(Screen.passes(byRows(e, rule, f, a)) && Screen.passes(byColumns))) {
            screen.flag("other members contribute to " + EntryNames.entry(out, p, e.input().name(), f.col())
                    + ": a value outside the guessed pattern");
            return false;
        }
        return true;
    }

    /**
     * What the other rows of the entry's row group put at its column, beyond the backward's value alone {@code a}:
     * the strictest other row's value there, which the pattern says is zero.
     */
    private double byRows(Entries e, Screen rule, Flagged f, double a) {
        int p = f.row();
        int otherRow = rowGroups.strictestOther()[p];
        return otherRow < 0 ? 0 : rule.score(
                rowGroups.weightOf()[p] * (e.values().analytic(f.at()) - a) / rowGroups.weightOf()[otherRow], 0,
                e.errors().at(otherRow, f.col()));
    }

    CheckTarget target() {
        return t;
    }

    Settings settings() {
        return s;
    }

    WindowPattern pattern() {
        return pattern;
    }

    RowGroups rowGroups() {
        return rowGroups;
    }

    List<Entries> entries() {
        return entries;
    }

    LocatedLines located() {
        return located;
    }

    ParallelLines threads() {
        return threads;
    }

    /** Input {@code in}'s groups of columns and their weights, as its column pass takes its differences. */
    void columnGroups(String in, GroupBatches.Groups groups) {
        columnGroups.put(in, groups);
    }

    /** The checked inputs' entries, in the order {@link Flagged} and {@link Suspect} index them. */
    WindowPattern.Input input(int index) {
        return entries.get(index).input();
    }

    int inputCount() {
        return entries.size();
    }

    /** The rule a report judges input {@code index}'s block by, as {@link #rows()} does. */
    Tolerance blockRule(int index) {
        Entries e = entries.get(index);
        return sides.judging().rule(out, e.input().name(), e.values().largestNumerical());
    }

    Sides sides() {
        return sides;
    }

    String output() {
        return out;
    }

    TwoSidedScreen screen() {
        return screen;
    }

    GroupBatches.Groups columnGroups(String in) {
        return columnGroups.get(in);
    }

    /** Input {@code index}'s name, error bounds and rule, for {@link FinerSteps}. */
    NumericalError.Block errors(int index) {
        return entries.get(index).errors();
    }

    String inputName(int index) {
        return entries.get(index).input().name();
    }

    double analyticAt(int index, int at) {
        return entries.get(index).values().analytic(at);
    }

    /** The screen of input {@code index}'s entries, decided once the backward passes gave its scale. */
    Screen entryScreen(int index) {
        return screens.get(index);
    }

    int batch() {
        return TwoSidedTuning.BATCH_PER_THREAD * batchThreads;
    }

    /** Where each row's entries of each input go: the pattern's windows, row after row. */
    private void layOut() {
        for (WindowPattern.Input x : pattern.inputs()) {
            int[] start = new int[pattern.rows() + 1];
            for (int p = 0; p < pattern.rows(); p++) {
                start[p + 1] = Math.addExact(start[p], (int) WindowPattern.size(pattern.window(p, x)));
            }
            LocatedLines.Extras extras = located.extras(x.name(), Flat.size(x.shape()));
            int n = Math.addExact(start[pattern.rows()], extras.size());
            entries.add(new Entries(entries.size(), x, start, new EntryValues(n),
                    (NumericalError.Block) sides.judging().errors(out, x.name()), extras, new Kinks()));
        }
    }

    /**
     * The report's rows: every entry inside the pattern, by the dense rule, in row-major order. An entry that fails
     * was sent back by the screen, so its values are the dense check's own.
     */
    private List<GradientResult> rows() {
        List<GradientResult> results = new ArrayList<>();
        long m = pattern.rows();
        for (Entries e : entries) {
            Meter begin = Meter.timing();
            String in = e.input().name();
            Tolerance rule = sides.judging().rule(out, in, e.values().largestNumerical());
            JacobianComparison.Row row = JacobianComparison.compare(sink -> feed(e, sink), pattern.outShape(),
                    e.input().shape(), new JacobianComparison.Criteria(rule, s.delta(), t.scale(out)));
            if (row.verdict() != Verdict.PASS && row.verdict() != Verdict.MISMATCH) {
                return null; // non-finite values, a zero gradient: the one-sided path's diagnoses
            }
            String note = e.kinks().note(in, e.input().shape(), row.errorNote());
            if (!e.kinks().isEmpty() && row.verdict().passed()) {
                row = row.withVerdict(Verdict.NONDIFFERENTIABLE);
            }
            long[] failing = {0};
            if (row.verdict() == Verdict.MISMATCH) {
                feed(e, (r, c, a, n, err) -> failing[0] += JacobianComparison.score(rule, a, n, err) <= 1 ? 0 : 1);
            }
            double seconds = analyticSeconds + numericalSeconds.getOrDefault(in, 0.0)
                    + begin.seconds();
            Mismatches found = new Mismatches(failing[0], m * Flat.size(e.input().shape()), 0, null, List.of(), null,
                    null);
            results.add(row.toResult(new JacobianComparison.Compared(out, in, CheckKind.JACOBIAN, t.order()),
                    sides.analytic().evaluations(out) + sides.numerical().evaluations(in), seconds, note,
                    null).withDiagnosis(found, null));
        }
        return results;
    }

    private void feed(Entries e, JacobianComparison.EntrySink sink) {
        long[] shape = e.input().shape();
        int[][] first = pattern.window(0, e.input());
        int[] extrasOfFirst = e.extras().ofRow(0);
        if ((WindowPattern.size(first) == 0 || !WindowPattern.contains(first, shape, 0))
                && (extrasOfFirst.length == 0 || extrasOfFirst[0] != 0)) {
            sink.add(0, 0, 0, 0, e.errors().at(0, 0)); // as a sparse block lists it: the dense check's first entry
        }
        for (int p = 0; p < pattern.rows(); p++) {
            int row = p;
            int[] k = {e.rowStart()[p]};
            int[] extras = e.extras().ofRow(p);
            int[] next = {0}; // the row's next extra, fed in column order among the window's entries
            WindowPattern.forEach(pattern.window(p, e.input()), shape, l -> {
                for (; next[0] < extras.length && extras[next[0]] < l; next[0]++) {
                    feedEntry(e, sink, row, extras[next[0]], e.extraAt(row, extras[next[0]]));
                }
                feedEntry(e, sink, row, l, k[0]++);
            });
            for (; next[0] < extras.length; next[0]++) {
                feedEntry(e, sink, row, extras[next[0]], e.extraAt(row, extras[next[0]]));
            }
        }
    }

    private static void feedEntry(Entries e, JacobianComparison.EntrySink sink, int row, int l, int at) {
        if (e.kinks().contains(at)) {
            return; // at a kink: left out, as the dense judge leaves it out
        }
        sink.add(row, l, e.values().analytic(at), e.values().judged(row, l, e.values().numerical(at)),
                e.errors().at(row, l));
    }
}
