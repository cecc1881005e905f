package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.Sides;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.dense.TieCheck;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.Tolerance;
import it.unimi.dsi.fastutil.ints.IntIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The run's report, once its screen is clean: a row per input, its entries judged by the dense rule. */
final class Report {

    private Report() {}

    /**
     * The report's rows: every entry inside the pattern, by the dense rule, in row-major order. An entry that fails
     * was sent back by the screen, so its values are the dense check's own.
     */
    static List<GradientResult> rows(TwoSidedRun run, double analyticSeconds, Map<String, Double> numericalSeconds) {
        WindowPattern pattern = run.pattern();
        String out = run.out();
        Sides sides = run.sides();
        CheckTarget t = run.target();
        List<GradientResult> results = new ArrayList<>();
        long m = pattern.rows();
        Meter tieProbes = Meter.timing();
        Map<String, TieCheck.Violation> ties = Ties.judge(run);
        double tieSeconds = tieProbes.seconds();
        for (Entries e : run.entries()) {
            Meter begin = Meter.timing();
            String in = e.input().name();
            Tolerance rule = run.blockRule(e.index());
            JacobianComparison.Tally tally = tally(pattern, e, rule);
            JacobianComparison.Row row = tally.row(pattern.outShape(), e.input().shape(),
                    new JacobianComparison.Criteria(rule, run.settings().delta(), t.scale(out)));
            if (row.verdict() != Verdict.PASS && row.verdict() != Verdict.MISMATCH) {
                return null; // non-finite values, a zero gradient: the one-sided path's diagnoses
            }
            Noted noted = atKinks(row, e, ties.get(in), pattern.outShape());
            row = noted.row();
            String note = joined(noted.note(), run.screen().affine().note(t.affine(), in));
            long failing = row.verdict() == Verdict.MISMATCH ? tally.failing() : 0;
            double seconds = analyticSeconds + numericalSeconds.getOrDefault(in, 0.0)
                    + begin.seconds() + (e.index() == 0 ? tieSeconds : 0);
            Mismatches found = new Mismatches(failing, m * Flat.size(e.input().shape()), 0, null, List.of(), null,
                    null);
            results.add(row.toResult(new JacobianComparison.Compared(out, in, CheckKind.JACOBIAN, t.order()),
                    // the backward passes gave every input's values at once: counted in the first input's row
                    (e.index() == 0 ? sides.analytic().evaluations(out) : 0) + sides.numerical().evaluations(in),
                    seconds, note, null).withDiagnosis(found, null));
        }
        return results;
    }

    /** Two notes as one, either of them null where there is none. */
    private static String joined(String note, String more) {
        return more == null ? note : note == null ? more : note + "; " + more;
    }

    /** A row with its note. */
    private record Noted(JacobianComparison.Row row, String note) {}

    /**
     * The row as its kinks leave it: failed by a tie the backward gets wrong, as dense mode's block is, else
     * nondifferentiable where it passed with entries left out.
     */
    private static Noted atKinks(JacobianComparison.Row row, Entries e, TieCheck.Violation tie, long[] outShape) {
        String note = e.kinks().note(e.name(), e.input().shape(), row.errorNote());
        if (tie != null) {
            return new Noted(row.verdict().passed() ? Ties.failing(row, tie, e, outShape) : row,
                    joined(note, tie.note()));
        }
        return new Noted(!e.kinks().isEmpty() && row.verdict().passed()
                ? row.withVerdict(Verdict.NONDIFFERENTIABLE) : row, note);
    }

    /**
     * Every entry of input e's block in one tally: those judged as they came and then the ones the screen sent on,
     * or, where the values are held, every entry fed now. Either way the entry (0, 0) is in it, zero on both sides
     * where the pattern leaves it out, as a sparse block lists it: the dense check's first entry.
     */
    private static JacobianComparison.Tally tally(WindowPattern pattern, Entries e, Tolerance rule) {
        JacobianComparison.Tally tally = e.tallies() != null ? e.tallies().merged() : new JacobianComparison.Tally(rule);
        if (!listsFirst(pattern, e)) {
            tally.add(0, 0, 0, 0, e.errors().at(0, 0));
        }
        if (e.tallies() == null) {
            feed(pattern, e, tally::add);
            return tally;
        }
        for (IntIterator it = e.values().sentOn().iterator(); it.hasNext();) {
            int at = it.nextInt();
            feedEntry(e, tally::add, e.values().rowOf(at), e.values().colOf(at), at);
        }
        return tally;
    }

    /** Whether the pattern (with the located extras) holds the block's entry (0, 0). */
    private static boolean listsFirst(WindowPattern pattern, Entries e) {
        int[][] first = pattern.window(0, e.input());
        int[] extrasOfFirst = e.extras().ofRow(0);
        return WindowPattern.size(first) > 0 && WindowPattern.contains(first, e.input().shape(), 0)
                || extrasOfFirst.length > 0 && extrasOfFirst[0] == 0;
    }

    private static void feed(WindowPattern pattern, Entries e, JacobianComparison.EntrySink sink) {
        long[] shape = e.input().shape();
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
