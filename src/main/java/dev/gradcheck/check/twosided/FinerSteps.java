package dev.gradcheck.check.twosided;

import dev.gradcheck.check.jacobian.NumericalJacobian;
import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.check.numeric.CoarseFirst;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.KinkDetector;
import dev.gradcheck.check.numeric.MostPreciseStep;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.numeric.OneSidedStep;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.Stencil;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entries of a two-sided check whose evaluations were clean but whose own score lies near the tolerance, judged at
 * their most precise step as the dense judge does ({@link MostPreciseStep}), a group of columns at a time: along the
 * group's direction only the owner column moves an entry's row (the pattern says so, and the screen's rests held
 * it), so the difference along it at steps H, 10·H, 100·H is the owner column's, times its applied weight, at its
 * own step times its weight. The groups are taken on the run's threads, each result kept in group order on the
 * calling thread. An entry still beyond the tolerance there goes on to be recomputed alone
 * ({@link Recompute}), and so does every entry of a group along which one sits at a kink: alone, an entry
 * at a kink of its own column is left out as the dense judge leaves it out. Along an input the forward is declared
 * affine in (op/catalog's AffineInputs, on the target), a group is first taken by {@link OneSidedStep}: one forward
 * where the ladder takes four, kept only where the data agree with the declaration (the row's note counts both).
 */
final class FinerSteps {

    private static final Logger LOG = LoggerFactory.getLogger(FinerSteps.class);

    private FinerSteps() {}

    /** The forward evaluations made so far for the run's inputs (each input's derivative counts its own). */
    private static long forwards(TwoSidedRun c) {
        return c.entries().stream().mapToLong(e -> c.sides().numerical().evaluations(e.name())).sum();
    }

    /**
     * The run's near entries ({@link TwoSidedScreen#near}), each kept at its most precise step or sent back to be
     * recomputed alone.
     */
    static void resolve(TwoSidedRun c) {
        List<TwoSidedScreen.Flagged> near = c.screen().near();
        Map<String, List<TwoSidedScreen.Flagged>> byGroup = new LinkedHashMap<>();
        for (TwoSidedScreen.Flagged f : near) {
            byGroup.computeIfAbsent(f.input() + ":" + f.group(), k -> new ArrayList<>()).add(f);
        }
        List<List<TwoSidedScreen.Flagged>> groups = new ArrayList<>(byGroup.values());
        Output y = new Output(c.target().scale(c.out()), c.target().magnitudes(c.out()));
        long before = forwards(c);
        List<Outcome> outcomes = c.threads().run(groups.size(), new Groups(c, groups, c.sides().numerical(), y));
        LOG.debug("{}: {} entries near the tolerance in {} groups of columns, taken at finer steps in {} forwards",
                c.out(), near.size(), groups.size(), forwards(c) - before);
        for (int g = 0; g < groups.size(); g++) {
            List<TwoSidedScreen.Flagged> entries = groups.get(g);
            Outcome o = outcomes.get(g);
            if (o.affine() != Affine.UNDECLARED) {
                c.screen().affine().count(c.entries(entries.get(0).input()).name(), o.affine() == Affine.SETTLED);
            }
            if (o.kink() >= 0) { // each of the group's entries taken alone: kinks there are left out or judged
                TwoSidedScreen.Flagged at = entries.get(o.kink());
                for (TwoSidedScreen.Flagged f : entries) {
                    c.screen().entry(f, EntryNames.row(c.out(), at.row()) + " sits at a kink along the columns of "
                            + EntryNames.element(c.entries(at.input()).name(), at.col()) + "'s group");
                }
                continue;
            }
            for (int k = 0; k < entries.size(); k++) {
                keep(c, entries.get(k), o.estimates()[k]);
            }
        }
    }

    /** What a group's input being declared affine came to. */
    private enum Affine {
        /** The input is not declared affine: the ladder took the group. */
        UNDECLARED,
        /** Its one-sided difference settled the group. */
        SETTLED,
        /** The data refuted the declaration for this group, and the ladder took it. */
        REFUTED
    }

    /** A group's entries along its direction: each one's estimate at its chosen step, or the first at a kink. */
    private record Outcome(int kink, MostPreciseStep.Estimate[] estimates, Affine affine) {

        Outcome(int kink, MostPreciseStep.Estimate[] estimates) {
            this(kink, estimates, Affine.UNDECLARED);
        }

        Outcome refuted() {
            return new Outcome(kink, estimates, Affine.REFUTED);
        }
    }

    /** The output at x: its largest |y| (the probes' rounding floor) and each element's |y|, read once a run. */
    private record Output(double scale, double[] magnitudes) {}

    /** The groups' entries taken along their directions, one group a task, on a side of each thread's own. */
    private record Groups(TwoSidedRun c, List<List<TwoSidedScreen.Flagged>> groups, NumericalJacobian side,
                          Output y) implements ParallelLines.Evaluator<Outcome> {

        @Override
        public Outcome evaluate(int task) {
            List<TwoSidedScreen.Flagged> entries = groups.get(task);
            TwoSidedScreen.Flagged first = entries.get(0);
            String in = c.entries(first.input()).name();
            GroupBatches.Groups columns = c.columns().get(in);
            int[] members = columns.lines()[first.group()];
            double[] applied = side.applied(in, members, columns.weights()[first.group()]);
            NumericalDerivative d = side.derivative(in);
            double[] direction = new double[Math.toIntExact(Flat.size(d.inputs().get(in).shape()))];
            double step = 0;
            for (int k = 0; k < members.length; k++) {
                direction[members[k]] = applied[k];
                step = Math.max(step, d.stepAt(in, members[k]));
            }
            Map<String, INDArray> u = Map.of(in, Flat.array(direction, d.inputs().get(in).shape()));
            String out = c.out();
            int[] rows = entries.stream().mapToInt(TwoSidedScreen.Flagged::row).toArray();
            // the line holds the entries' rows alone, in their order: the probes read nothing else
            KinkDetector.Line evaluated = t -> Flat.valuesAt(d.atDirection(u, t).get(out), rows);
            KinkDetector.Line line = remembered(kept(entries, step, evaluated));
            if (c.target().affine().contains(in) && keptCentral(entries, d)) {
                MostPreciseStep.Estimate[] settled = OneSidedStep.settled(line, step, valuesAtH(entries, step),
                        rounding(entries, step, d), y.scale(), d.stencil());
                return settled != null ? new Outcome(-1, settled, Affine.SETTLED)
                        : judge(entries, line, step, d).refuted();
            }
            return judge(entries, line, step, d);
        }

        /** Each entry's rounding model at the group's step, from its own |y|. */
        private double[] rounding(List<TwoSidedScreen.Flagged> entries, double step, NumericalDerivative d) {
            return entries.stream().mapToDouble(f -> NumericalError.rounding(d.stencil(), y.magnitudes()[f.row()],
                    step)).toArray();
        }

        private Outcome judge(List<TwoSidedScreen.Flagged> entries, KinkDetector.Line line, double step,
                              NumericalDerivative d) {
            int n = entries.size();
            int[] rows = new int[n]; // positions in the line, which holds the entries' rows alone
            double[] scaled = new double[n]; // the backward's values times the owner's weight: d/dt along the group
            double[] rounding = rounding(entries, step, d);
            for (int k = 0; k < n; k++) {
                TwoSidedScreen.Flagged f = entries.get(k);
                rows[k] = k;
                scaled[k] = c.entries(f.input()).values().analytic(f.at()) * f.colWeight();
            }
            double scale = y.scale();
            MostPreciseStep.Rows lineRows = new MostPreciseStep.Rows(rows, scaled);
            MostPreciseStep.Coarse coarse = null;
            if (keptCentral(entries, d)) { // h's values are at hand: the larger rungs first, which may settle all
                coarse = CoarseFirst.probe(line, step, lineRows, scale, d.stencil());
                double[] atStep = valuesAtH(entries, step);
                MostPreciseStep.Estimate[] settled = CoarseFirst.settled(coarse, atStep, rounding);
                settled = settled != null ? settled : CoarseFirst.settledWithMiddle(coarse, atStep, rounding);
                if (settled != null) {
                    return new Outcome(-1, settled);
                }
            }
            KinkDetector.Probe probe = KinkDetector.probe(line, step, rows, scaled, scale, d.stencil());
            MostPreciseStep.Estimate[] atH = new MostPreciseStep.Estimate[n];
            for (int k = 0; k < n; k++) {
                if (probe.kinks()[k]) {
                    return new Outcome(k, null);
                }
                atH[k] = MostPreciseStep.Estimate.of(probe, k, rounding[k], step);
            }
            MostPreciseStep.Estimate[] best = coarse == null
                    ? MostPreciseStep.choose(line, step, lineRows, atH, scale, d.stencil())
                    : MostPreciseStep.choose(coarse, atH);
            for (int k = 0; k < n; k++) {
                best[k] = best[k] == null ? atH[k] : best[k];
            }
            return new Outcome(-1, best);
        }

        @Override
        public Groups copy(ParallelLines.Copies copies) {
            return new Groups(c, groups, side.copy(copies), y);
        }

        @Override
        public List<Differentiable> functions() {
            return side.functions();
        }
    }

    /**
     * The line, reading the outputs at x ± H that the column pass evaluated along the same direction with the same
     * step (the same moves of x, so the same outputs) where it kept them for every entry, and evaluating the others.
     */
    private static KinkDetector.Line kept(List<TwoSidedScreen.Flagged> entries, double step,
                                          KinkDetector.Line evaluated) {
        if (!entries.stream().allMatch(TwoSidedScreen.Flagged::keptPoints)) {
            return evaluated;
        }
        return t -> t == step ? entries.stream().mapToDouble(TwoSidedScreen.Flagged::atPlus).toArray()
                : t == -step ? entries.stream().mapToDouble(TwoSidedScreen.Flagged::atMinus).toArray()
                : evaluated.at(t);
    }

    /**
     * The line, each point evaluated once: the rungs probed before h's ({@link CoarseFirst}) are probed again by
     * the rule where they did not settle the line, from the same outputs.
     */
    private static KinkDetector.Line remembered(KinkDetector.Line line) {
        Map<Double, double[]> points = new HashMap<>();
        return t -> points.computeIfAbsent(t, line::at);
    }

    /** Whether every entry's points x ± H are kept and give its value at H alone: the central stencil's. */
    private static boolean keptCentral(List<TwoSidedScreen.Flagged> entries, NumericalDerivative d) {
        return d.stencil() == Stencil.CENTRAL && entries.stream().allMatch(TwoSidedScreen.Flagged::keptPoints);
    }

    /** Each entry's central difference at H along its group, from the kept points, as h's probe computes it. */
    private static double[] valuesAtH(List<TwoSidedScreen.Flagged> entries, double step) {
        return entries.stream().mapToDouble(f -> (f.atPlus() - f.atMinus()) / (2 * step)).toArray();
    }

    /** The entry's value and bound at the chosen step, per unit of its own column; beyond the rule: recomputed. */
    private static void keep(TwoSidedRun c, TwoSidedScreen.Flagged f, MostPreciseStep.Estimate alongGroup) {
        double w = f.colWeight();
        MostPreciseStep.Estimate own = new MostPreciseStep.Estimate(alongGroup.value() / w, alongGroup.bound() / w,
                alongGroup.rounding() / w, alongGroup.step() * w);
        Entries e = c.entries(f.input());
        e.errors().atPreciseStep(f.row(), f.col(), own.bound());
        e.values().atPreciseStep(f.row(), f.col(), own.value());
        double a = e.values().analytic(f.at());
        if (!c.screen(f.input()).agrees(a, own.value(), own.bound())) {
            c.screen().beyondAtPreciseStep(f, EntryNames.entry(c.out(), f.row(), e.name(), f.col())
                    + ": analytic " + a + ", numerical " + own.value() + " at its most precise step");
        }
    }
}
