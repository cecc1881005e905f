package dev.gradcheck.check.twosided;

import dev.gradcheck.check.dense.KinkEntry;
import dev.gradcheck.check.dense.TieCheck;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.result.WorstElement;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The ties among the entries left out at kinks, judged as a whole as dense mode judges them ({@link TieCheck}):
 * each tied entry alone may be a subgradient while their sum is not (the full gradient given to both of two tied
 * maxima), which no entry alone shows. The entries are those {@link Recompute} located at kinks, each with the
 * one-sided slopes its column's probe measured, so a tie costs its one joint probe (6 evaluations) and no more.
 */
final class Ties {

    private Ties() {}

    /** Per input whose part in a tie is wrong, that tie; empty where there is none. */
    static Map<String, TieCheck.Violation> judge(TwoSidedRun run) {
        List<KinkEntry> kinks = new ArrayList<>();
        Entries strictest = null;
        for (Entries e : run.entries()) {
            e.kinks().tied().forEach(k -> kinks.add(k.entry()));
            if (strictest == null || e.values().largestNumerical() > strictest.values().largestNumerical()) {
                strictest = e;
            }
        }
        if (kinks.size() < 2) {
            return Map.of();
        }
        CheckTarget t = run.target();
        String out = run.out();
        long[] shape = t.refAtX().get(out).shape();
        // any input's derivative differentiates the reference at x; its evaluations count in that input's row
        NumericalDerivative d = run.sides().numerical().derivative(strictest.name());
        Tolerance rule = run.blockRule(strictest.index());
        return TieCheck.violations(kinks, d, t.refInputs(), new TieCheck.ProbedOutput(TieCheck.of(d, out),
                row -> TieCheck.element(out, shape, row), t.magnitudes(out), t.scale(out)), rule);
    }

    /** A passing row of input {@code e} that its wrong tie fails, as dense mode fails the block. */
    static JacobianComparison.Row failing(JacobianComparison.Row row, TieCheck.Violation tie, Entries e, long[] outShape) {
        KinkEntry k = tie.entry();
        double numerical = e.kinks().tied().stream().filter(t -> t.entry().equals(k)).findFirst()
                .map(Kinks.Tied::numerical).orElse(Double.NaN);
        WorstElement worst = new WorstElement(Flat.unravel(k.flatRow(), outShape),
                Flat.unravel(k.flatCol(), e.input().shape()), k.analytic(), numerical);
        return TieCheck.failing(row, tie, worst);
    }
}
