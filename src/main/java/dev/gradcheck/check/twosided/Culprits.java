package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.ColouringTuning;
import dev.gradcheck.check.colouring.Nonzeros;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Sampling;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.IntConsumer;
import java.util.function.ToDoubleFunction;

/**
 * Where dense blocks do not fit, what a two-sided check's screen sent back that single entries cannot settle (a value
 * outside the guessed pattern, an evaluation holding more than its pattern explains) is looked for rather than refused.
 * An entry it could not settle has its own row and column located; an evaluation holding a value it does not explain is
 * split in halves, and each half that still holds a value at the position evaluated again, down to the single rows or
 * columns that hold it: a group of k lines with one culprit costs 2·log₂k evaluations. Those lines are computed alone,
 * and so, until none is left, is every line that an entry outside the pattern in a located line reaches. The check then
 * runs again (TwoSidedCompression owns the rounds: this class only locates, and never runs the check) with the located
 * lines as groups of their own and their entries outside the pattern judged like the pattern's ({@link LocatedLines}):
 * every entry judged, its values exact where a located line holds it, so a wrong entry is named and counted as densely.
 * Where the search runs out of its budget first (a backward wrong everywhere), the entries of the located lines are
 * judged alone, as the dense judge takes them; one that fails fails the target, reported as at least that many
 * mismatches among the lines located, unless a round that counts every entry ({@link CountingRound}) applies and
 * settles it. Why this cannot fail a right backward, nor pass a wrong one: docs/checking.md
 * ("Values outside the pattern").
 */
final class Culprits {

    private final LocatedLines located = new LocatedLines();
    /** The located rows' backward values per input, where nonzero. */
    private final Map<Integer, Map<String, Nonzeros>> rowLines = new HashMap<>();
    /** The located columns' differences, per input, where nonzero. */
    private final Map<String, Map<Integer, Nonzeros>> columnLines = new HashMap<>();
    private final Deque<Integer> pendingRows = new ArrayDeque<>();
    /** Per input, each column's weight in its group of the run being searched. */
    private final Map<String, double[]> columnWeights = new HashMap<>();
    private final Deque<int[]> pendingColumns = new ArrayDeque<>();
    private final double budget;
    private final int points;
    private double spent;
    private final Meter started = Meter.timing();
    private boolean exhausted;

    private Culprits(TwoSidedRun first) {
        this.points = first.points();
        this.budget = budget(first);
    }

    /** What the search may spend, in forward evaluations: twice a run of the check, and at least the least budget. */
    static double budget(TwoSidedRun first) {
        return Math.max(TwoSidedTuning.MIN_BUDGET, 2 * TwoSidedRun.cost(first.pattern(), first.points()));
    }

    /** A search for the lines behind what the first run's screen sent back, within that run's budget. */
    static Culprits searchFrom(TwoSidedRun first) {
        return new Culprits(first);
    }

    /** The lines located so far, for the next run of the check. */
    LocatedLines located() {
        return located;
    }

    /**
     * Whether this located new lines behind what c's screen sent back, within the budget: each entry it could not
     * settle by its own row and column (the lines that hold it), then each suspect evaluation by halving.
     */
    boolean locate(TwoSidedRun c) {
        int before = located.count();
        columnWeights.clear();
        for (TwoSidedScreen.Flagged f : c.screen().entries()) {
            if (spent >= budget || located.count() >= TwoSidedTuning.MAX_LINES) {
                exhausted = true;
                return false;
            }
            if (located.addRow(f.row())) {
                pendingRows.add(f.row());
            }
            if (located.addColumn(c.entries(f.input()).name(), f.col())) {
                pendingColumns.add(new int[] {f.input(), f.col()});
            }
            close(c);
        }
        for (TwoSidedScreen.Suspect x : c.screen().suspects()) {
            if (spent >= budget || located.count() >= TwoSidedTuning.MAX_LINES) {
                exhausted = true;
                break;
            }
            if (x.rowSide()) {
                searchRows(c, x, without(c.rowGroups().groups()[x.group()], located.rows()));
            } else {
                String in = c.entries(x.input()).name();
                searchColumns(c, x, without(c.columns().get(in).lines()[x.group()], located.columns(in)));
            }
            close(c);
        }
        exhausted |= !(pendingRows.isEmpty() && pendingColumns.isEmpty());
        return !exhausted && located.count() > before;
    }

    private static int[] without(int[] lines, Set<Integer> located) {
        return Arrays.stream(lines).filter(l -> !located.contains(l)).sorted().toArray();
    }

    /** The rows among these whose backward holds a value at the suspect's column, halving. */
    private void searchRows(TwoSidedRun c, TwoSidedScreen.Suspect x, int[] rows) {
        String in = c.entries(x.input()).name();
        halve(rows, new Halving(ColouringTuning.BACKWARD_COST, lines -> c.sides().analytic().evaluate(c.out(),
                lines, Arrays.stream(lines).mapToDouble(p -> c.rowGroups().weightOf()[p]).toArray()).get(in)[x.position()],
                (lines, v) -> nonzero(c, x.input(), quietest(c, lines), x.position(), v), p -> {
                    if (located.addRow(p)) {
                        pendingRows.add(p);
                    }
                }));
    }

    /** The columns among these whose difference holds a value at the suspect's row, halving. */
    private void searchColumns(TwoSidedRun c, TwoSidedScreen.Suspect x, int[] columns) {
        String in = c.entries(x.input()).name();
        double[] weightOf = columnWeights.computeIfAbsent(in, k -> columnWeights(c.columns().get(k)));
        halve(columns, new Halving(points, lines -> c.sides().numerical().evaluate(in, lines,
                Arrays.stream(lines).mapToDouble(l -> weightOf[l]).toArray()).get(c.out())[x.position()],
                (lines, v) -> nonzero(c, x.input(), x.position(), lines[ColumnPass.coarsest(c, in, lines).first()], v),
                l -> {
                    if (located.addColumn(in, l)) {
                        pendingColumns.add(new int[] {x.input(), l});
                    }
                }));
    }

    /**
     * One side's halving of a suspect's group: what an evaluation over some of its lines costs and holds at the
     * suspect's position, whether that value is one (given the subset, whose strictest line's bound it is judged
     * by: the quietest row, the column with the largest step), and what becomes of a single line that holds it.
     */
    private record Halving(double cost, ToDoubleFunction<int[]> valueAt, BiPredicate<int[], Double> holds,
                           IntConsumer found) {}

    /** Of these rows, the one with the smallest output, whose finite-difference bound is the smallest. */
    private static int quietest(TwoSidedRun c, int[] rows) {
        double[] magnitudes = c.target().magnitudes(c.out());
        int q = rows[0];
        for (int p : rows) {
            q = Math.abs(magnitudes[p]) < Math.abs(magnitudes[q]) ? p : q;
        }
        return q;
    }

    /** The lines among these whose evaluation holds a value at the position, each half evaluated again. */
    private void halve(int[] lines, Halving h) {
        if (lines.length == 0 || spent >= budget) {
            return;
        }
        spent += h.cost();
        if (!h.holds().test(lines, h.valueAt().applyAsDouble(lines))) {
            return;
        }
        if (lines.length == 1) {
            h.found().accept(lines[0]);
            return;
        }
        halve(Arrays.copyOfRange(lines, 0, lines.length / 2), h);
        halve(Arrays.copyOfRange(lines, lines.length / 2, lines.length), h);
    }

    /** Each column's weight in its group's difference. */
    private static double[] columnWeights(GroupBatches.Groups groups) {
        int n = Arrays.stream(groups.lines()).mapToInt(g -> g.length).sum();
        double[] weightOf = new double[n];
        for (int g = 0; g < groups.lines().length; g++) {
            for (int k = 0; k < groups.lines()[g].length; k++) {
                weightOf[groups.lines()[g][k]] = groups.weights()[g][k];
            }
        }
        return weightOf;
    }

    /** A value the screen would not pass as zero at entry (row, col) of input {@code index}. */
    private static boolean nonzero(TwoSidedRun c, int index, int row, int col, double value) {
        return !c.screen(index).passes(value, 0, c.entries(index).errors().at(row, col));
    }

    /**
     * Every located line computed alone, and every line that an entry of it outside the pattern reaches located in
     * turn, so that an extra's row and column are both located.
     */
    private void close(TwoSidedRun c) {
        while (!(pendingRows.isEmpty() && pendingColumns.isEmpty()) && located.count() < TwoSidedTuning.MAX_LINES) {
            if (!pendingRows.isEmpty()) {
                row(c, pendingRows.poll());
            } else {
                int[] col = pendingColumns.poll();
                column(c, col[0], col[1]);
            }
        }
    }

    /** Whether another line may be located; once not, the search is exhausted. */
    private boolean withinLines() {
        exhausted |= located.count() >= TwoSidedTuning.MAX_LINES;
        return !exhausted;
    }

    private void row(TwoSidedRun c, int p) {
        spent += ColouringTuning.BACKWARD_COST;
        Map<String, double[]> line = c.sides().analytic().evaluate(c.out(), new int[] {p}, new double[] {1});
        Map<String, Nonzeros> kept = new HashMap<>();
        for (int i = 0; i < c.entries().size(); i++) {
            WindowPattern.Input x = c.entries(i).input();
            double[] v = line.get(x.name());
            kept.put(x.name(), Nonzeros.of(v));
            int[][] window = c.pattern().window(p, x);
            for (int l = 0; l < v.length; l++) {
                if (v[l] != 0 && nonzero(c, i, p, l, v[l]) && !WindowPattern.contains(window, x.shape(), l)
                        && withinLines()) {
                    located.addExtra(x.name(), v.length, p, l);
                    if (located.addColumn(x.name(), l)) {
                        pendingColumns.add(new int[] {i, l});
                    }
                }
            }
        }
        rowLines.put(p, kept);
    }

    private void column(TwoSidedRun c, int index, int l) {
        WindowPattern.Input x = c.entries(index).input();
        spent += points;
        double[] v = c.sides().numerical().evaluate(x.name(), new int[] {l}, new double[] {1}).get(c.out());
        columnLines.computeIfAbsent(x.name(), k -> new HashMap<>()).put(l, Nonzeros.of(v));
        int[][] rows = c.pattern().column(x, l);
        for (int p = 0; p < v.length; p++) {
            if (v[p] != 0 && nonzero(c, index, p, l, v[p]) && !WindowPattern.contains(rows, c.pattern().outShape(),
                    p) && withinLines()) {
                located.addExtra(x.name(), Flat.size(x.shape()), p, l);
                if (located.addRow(p)) {
                    pendingRows.add(p);
                }
            }
        }
    }

    /**
     * Where the search ran out before every evaluation was explained: the located lines' entries judged alone, as
     * the dense judge takes them (along the column alone, at the most precise step, kinks left out). Null when none
     * fails: then nothing here can say the target fails, and it is refused as too large.
     */
    List<GradientResult> failuresFound(TwoSidedRun c) {
        List<GradientResult> results = new ArrayList<>();
        boolean failed = false;
        for (int i = 0; i < c.entries().size(); i++) {
            List<Judged> judged = judgeAlone(c, i);
            Tolerance rule = c.blockRule(i);
            NumericalError errors = c.entries(i).errors();
            EntryValues values = c.entries(i).values();
            long failing = judged.stream().filter(j -> JacobianComparison.score(rule, j.analytic(),
                    values.judged(j.row(), j.col(), j.numerical()), errors.at(j.row(), j.col())) > 1).count();
            failed |= failing > 0;
            results.add(result(c, i, judged, failing, rule));
        }
        return failed ? results : null;
    }

    /** An entry of the located lines, both its values taken alone. */
    private record Judged(int row, int col, double analytic, double numerical) {}

    private List<Judged> judgeAlone(TwoSidedRun c, int index) {
        String in = c.entries(index).name();
        List<Judged> judged = new ArrayList<>();
        Map<Integer, Nonzeros> columns = columnLines.getOrDefault(in, Map.of());
        for (Map.Entry<Integer, Nonzeros> column : new java.util.TreeMap<>(columns).entrySet()) {
            int col = column.getKey();
            int[] rows = rowLines.keySet().stream().filter(p -> rowLines.get(p).get(in).get(col) != 0
                    || column.getValue().get(p) != 0).mapToInt(Integer::intValue).sorted().toArray();
            if (rows.length == 0) {
                continue;
            }
            double[] analytic = Arrays.stream(rows).mapToDouble(p -> rowLines.get(p).get(in).get(col)).toArray();
            Recompute.Alone alone = Recompute.alone(c, index, col, rows, analytic);
            for (int k = 0; k < rows.length; k++) {
                if (!alone.probe().kinks()[k]) {
                    alone.keep(c.entries(index), k);
                    judged.add(new Judged(rows[k], col, analytic[k], alone.probe().values()[k]));
                }
            }
        }
        judged.sort(java.util.Comparator.comparingInt(Judged::row).thenComparingInt(Judged::col));
        return judged;
    }

    /** Why the search ended before every evaluation was explained, for the report's note. */
    private String whyStopped() {
        return located.count() >= TwoSidedTuning.MAX_LINES ? "at its limit of " + TwoSidedTuning.MAX_LINES + " lines (" + Math.round(spent)
                + " evaluations)" : spent >= budget ? "at its budget of " + Math.round(budget) + " evaluations"
                : "with evaluations still unexplained after " + TwoSidedTuning.MAX_ROUNDS + " rounds";
    }

    private GradientResult result(TwoSidedRun c, int index, List<Judged> judged, long failing,
                                  Tolerance rule) {
        WindowPattern.Input x = c.entries(index).input();
        NumericalError errors = c.entries(index).errors();
        EntryValues values = c.entries(index).values();
        String out = c.out();
        JacobianComparison.Row row = JacobianComparison.compare(sink -> judged.forEach(j -> sink.add(j.row(),
                j.col(), j.analytic(), values.judged(j.row(), j.col(), j.numerical()), errors.at(j.row(), j.col()))),
                c.pattern().outShape(), x.shape(), new JacobianComparison.Criteria(rule, c.settings().delta(),
                        c.target().scale(out)));
        row = row.withVerdict(failing > 0 ? Verdict.MISMATCH : Verdict.PASS);
        int columns = located.columns(x.name()).size();
        Sampling lines = new Sampling(columns, Flat.size(x.shape()), located.rows().size(),
                c.pattern().rows());
        String note = (failing > 0 ? "at least " + failing + (failing == 1 ? " entry mismatches" : " entries mismatch")
                : "no mismatch") + " among the " + judged.size() + " entries of the " + located.rows().size()
                + " rows and " + columns + " columns located and judged alone; the search for what both sides"
                + " compressed could not explain stopped " + whyStopped() + ", so the rest of the block was not judged";
        // the backward passes serve every input's row: counted in the first input's
        long evaluations = (index == 0 ? c.sides().analytic().evaluations(out) : 0)
                + c.sides().numerical().evaluations(x.name());
        Mismatches found = new Mismatches(failing, judged.size(), 0, null, List.of(), null, null);
        return row.toResult(new JacobianComparison.Compared(out, x.name(), CheckKind.JACOBIAN, c.target().order()),
                evaluations, started.seconds(), note, lines).withDiagnosis(found, null);
    }
}
