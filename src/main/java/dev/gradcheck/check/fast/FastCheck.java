package dev.gradcheck.check.fast;

import static dev.gradcheck.spec.MemoryBudget.saturatingAdd;
import static dev.gradcheck.spec.MemoryBudget.saturatingMul;

import dev.gradcheck.check.dense.KinkEntry;
import dev.gradcheck.check.dense.BlockMask;
import dev.gradcheck.check.dense.TieCheck;
import dev.gradcheck.check.full.FullCheck;
import dev.gradcheck.check.jacobian.AnalyticJacobian;
import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.Seeded;
import dev.gradcheck.check.target.BlockSizes;
import dev.gradcheck.check.target.CheckMode;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.OverBudget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Fast mode: per checked input a random unit vector u, per output a random unit vector v (both from the spec's
 * seed), and per block the derivative of the one-variable function φ(t) = vᵀ·out(x + t·u) at t = 0: numerically
 * from the stencil along u, analytically as (vᵀJ)·u from one backward pass with cotangent v. That is 2 forward
 * evaluations per input and 1 backward pass per output instead of 2n and m.
 *
 * <p>The rule: φ′(0) is compared under the spec's own tolerance, unscaled. PyTorch widens its atol by Σu·Σv,
 * which for unit vectors grows like √(n·m) and lets through errors that size times larger than full mode would.
 * With unit u, v, E[(vᵀEu)²] = ‖E‖²_F / (n·m): the projection measures the root-mean-square entry error, so a
 * backward correct entry-wise passes and a spread-out error is caught, while an error in one entry alone is
 * diluted by about √(n·m) (docs/checking.md says when to prefer full mode).
 *
 * <p>A failing input is checked again in full mode, so the report still names the worst element.
 */
public final class FastCheck implements CheckMode {

    /** Only vectors: u and the numerical projections per input, v and the analytic ones per output. */
    @Override
    public Footprint footprint(BlockSizes blocks) {
        return new Footprint(blocks.bytesOverBlocks((n, m) -> saturatingMul(saturatingAdd(n, m), 2)),
                "its fast-mode vectors");
    }

    /**
     * One checked input's numerical side: its direction u, the derivative along it (kept for the probes, which
     * count into its evaluations), φ′(0) per output from the stencil, and what that cost.
     */
    private record Projection(FastProbe.Direction direction, NumericalDerivative derivative,
                              Map<String, Double> numerical, Meter.Cost cost) {

        String in() {
            return direction.in();
        }
    }

    /** One (output, input) projection judged: its outcome, the rule it was judged by, and what its judging cost. */
    private record Judged(Projection projection, FastProbe.Outcome outcome, Tolerance rule, Meter.Cost cost) {

        public Judged failingTies(TieCheck.Violation tie) {
            return new Judged(projection, outcome.failingTies(tie), rule, cost);
        }

        Judged plusEvaluations(long more) {
            return new Judged(projection, outcome, rule, cost.plusEvaluations(more));
        }
    }

    /**
     * The steps: a cotangent v per output, a direction u and φ′(0) along it per input, then per output a backward
     * pass and its projections judged; failing inputs rechecked in full.
     *
     * @param budget decides whether a failing input's full blocks fit, for the recheck
     */
    @Override
    public List<GradientResult> run(CheckTarget t, Settings s, MemoryBudget budget) {
        if (t.reference().clippedGraph().isPresent()) {
            // a reference split at error clips gives whole blocks only, no derivative along u to project
            return new FullCheck().run(t, s, budget);
        }
        List<GradientResult> rows = narrowed(t, s, project(t, s),
                in -> recheckCost(t, in) > FastTuning.RECHECK_IN_FULL_UP_TO);
        return recheckFailures(t, s, budget, rows);
    }

    /**
     * The projections alone, judged, a failing one narrowed to its entries, without the full recheck of a failing
     * input: what full mode asks where it would refuse a target over the budget (a failing projection is a
     * failure, whatever full mode could hold). Null for a graph with error clips, which has no derivative along u.
     */
    public static List<GradientResult> projections(CheckTarget t, Settings s) {
        if (t.reference().clippedGraph().isPresent()) {
            return null;
        }
        return narrowed(t, s, project(t, s), in -> true);
    }

    /** The projections judged, with the directions they were taken along (to narrow a failing one). */
    private record Projected(Map<String, INDArray> v, List<Projection> projections, List<GradientResult> rows) {

        INDArray u(String in) {
            return projections.stream().filter(p -> p.in().equals(in)).findFirst().orElseThrow().direction().u();
        }
    }

    private static Projected project(CheckTarget t, Settings s) {
        Map<String, INDArray> v = outputDirections(t, s);
        List<Projection> projections = t.wrt().stream().map(in -> project(t, s, in, v)).toList();
        List<GradientResult> results = new ArrayList<>();
        for (String out : t.outputs()) {
            results.addAll(checkOutput(t, s, out, v.get(out), projections, out.equals(t.outputs().get(0))));
        }
        return new Projected(v, projections, results);
    }

    /**
     * Each failing row of an input {@code narrow} picks, narrowed to the entries that fail ({@link EntryNarrowing});
     * a row where narrowing names none stays as it was, saying so.
     */
    private static List<GradientResult> narrowed(CheckTarget t, Settings s, Projected p, Predicate<String> narrow) {
        List<GradientResult> rows = new ArrayList<>();
        for (GradientResult r : p.rows()) {
            if (r.verdict().passed() || !narrow.test(r.input())) {
                rows.add(r);
                continue;
            }
            EntryNarrowing.Found found = EntryNarrowing.narrow(t, s, r.output(), r.input(), p.u(r.input()),
                    p.v().get(r.output()));
            rows.add(NarrowedRow.of(t, r, found));
        }
        return rows;
    }

    /**
     * What a full recheck of one failing input costs in evaluations: full mode's compressed paths hand a target that
     * fails to the dense path, which needs both sides (every column's forwards and every row's backward pass) and
     * probes each column that disagrees at a kink and at its most precise step. The cheaper side alone (2n or m)
     * is what a passing target costs; counted for a failing one it sent a bias of 4 elements under 5,408 outputs,
     * and a score's million weights, to a recheck of thousands of DL4J calls.
     */
    private static long recheckCost(CheckTarget t, String in) {
        long outputs = t.outputs().stream().mapToLong(out -> t.refAtX().get(out).length()).sum();
        return saturatingAdd(saturatingMul(FastTuning.DENSE_EVALUATIONS_PER_FAILING_COLUMN,
                t.refInputs().get(in).length()), outputs);
    }

    /** A random unit cotangent v per output (its masked rows left out). */
    private static Map<String, INDArray> outputDirections(CheckTarget t, Settings s) {
        Map<String, INDArray> v = new HashMap<>();
        for (String out : t.outputs()) {
            INDArray unit = Seeded.unit(s.samplingSeed(), "fast-v:" + out, t.refAtX().get(out).shape());
            v.put(out, t.order() == 1 ? BlockMask.withoutMaskedRows(s.mask(), out, unit) : unit);
        }
        return v;
    }

    /** A random unit direction u for the input (its masked columns left out), and vᵀ·(d out / du) per output. */
    private static Projection project(CheckTarget t, Settings s, String in, Map<String, INDArray> v) {
        Counter evaluations = new Counter();
        Meter meter = Meter.counting(evaluations::value);
        INDArray unit = Seeded.unit(s.samplingSeed(), "fast-u:" + in, t.refInputs().get(in).shape());
        INDArray u = t.order() == 1 ? BlockMask.withoutMaskedColumns(s.mask(), in, unit) : unit;
        NumericalDerivative d = t.numerical(s, evaluations).eachElementAlong();
        FastProbe.Direction direction = FastProbe.Direction.of(in, u, d);
        Map<String, double[]> along = d.along(Map.of(in, u), direction.step());
        Map<String, Double> byOutput = new HashMap<>();
        for (String out : t.outputs()) {
            byOutput.put(out, FastProbe.dot(Flat.values(v.get(out)), along.get(out)));
        }
        return new Projection(direction, d, byOutput, meter.cost());
    }

    /**
     * One output: a backward pass with cotangent v, each input's projection judged, then ties across inputs. The
     * pass serves every input's row and a projection every output's: each is counted in one row (the first input's,
     * the first output's), so that the rows' evaluations add up to the calls made.
     */
    private static List<GradientResult> checkOutput(CheckTarget t, Settings s, String out, INDArray v,
                                                    List<Projection> projections, boolean firstOutput) {
        Meter meter = Meter.timing();
        Map<String, double[]> gradients = backward(t, out, v);
        Meter.Cost backward = meter.cost().plusEvaluations(1); // the pass itself
        double noiseFloor = JacobianComparison.noiseFloor(t.scale(out), s.delta());
        FastProbe.ProjectedOutput output = FastProbe.ProjectedOutput.of(out, v, t.refAtX().get(out));
        List<Judged> judged = projections.stream()
                .map(p -> judge(t, s, output, gradients.get(p.in()), p, noiseFloor)).toList();
        List<Judged> tied = withTies(t, output, judged);
        List<GradientResult> rows = new ArrayList<>();
        for (int i = 0; i < tied.size(); i++) {
            Judged j = tied.get(i);
            Meter.Cost shared = i == 0 ? backward : new Meter.Cost(0, 0);
            rows.add(row(t, out, j, firstOutput ? shared.plus(j.projection().cost()) : shared));
        }
        return rows;
    }

    /**
     * vᵀJ for every input, from one backward pass, read out at once: the judging after it evaluates the functions
     * again, which may overwrite the arrays the pass returned. Null for an input the backward gives no gradient.
     */
    private static Map<String, double[]> backward(CheckTarget t, String out, INDArray v) {
        Map<String, INDArray> grads = t.test().vjpTransient(t.testInputs(), t.cotangentsOn(out, v), t.wrt());
        Map<String, double[]> flat = new HashMap<>();
        for (String in : t.wrt()) {
            INDArray g = grads.get(in);
            flat.put(in, g == null ? null : AnalyticJacobian.flatGradient(g, t.testInputs().get(in), in));
        }
        return flat;
    }

    /**
     * The cotangents of the one backward pass this mode makes where the target has one checked output (its random
     * direction v there, zeros elsewhere), so that the determinism row can make its passes with them and hand its
     * first to the mode; null where the mode makes more passes, or none of that kind (a graph with error clips).
     */
    public static Map<String, INDArray> backwardCotangents(CheckTarget t, Settings s) {
        if (t.outputs().size() != 1 || t.reference().clippedGraph().isPresent()) {
            return null;
        }
        String out = t.outputs().get(0);
        return t.cotangentsOn(out, outputDirections(t, s).get(out));
    }

    /** The projection of one input onto one output: (vᵀJ)·u against φ′(0), probed along u where they disagree. */
    private static Judged judge(CheckTarget t, Settings s, FastProbe.ProjectedOutput output, double[] gradient,
                                Projection p, double noiseFloor) {
        Meter meter = Meter.counting(p.derivative()::evaluations);
        double[] uFlat = p.direction().values();
        double[] flat = gradient == null ? new double[uFlat.length] : gradient;
        double analytic = FastProbe.dot(flat, uFlat);
        double numerical = p.numerical().get(output.out());
        // the projection's scale: its terms' root sum of squares, which a random-signed sum of terms reaches;
        // their plain sum would grow like √n and hide a 0.1% error
        Tolerance rule = s.toleranceForProjection(t.forwardNoise(output.out()), rootSumOfSquares(flat, uFlat));
        FastProbe probe = new FastProbe(p.derivative(), t.refInputs(), p.direction(), flat, output, rule);
        FastProbe.Outcome outcome = probe.verdict(analytic, numerical, gradient == null || allZero(flat), noiseFloor);
        if (outcome.verdict() == Verdict.PASS) {
            outcome = outcome.noting(String.format(java.util.Locale.ROOT, "fast mode catches one wrong entry alone"
                    + " at 95%% of positions from an error of %.1e", probe.singleEntryResolution(numerical)));
        }
        return new Judged(p, outcome, rule, meter.cost());
    }

    /**
     * The judgements with ties judged, within an input and across inputs, along directions over all of them: an
     * input whose part in a tie is wrong fails. The ties are probed with the first input's derivative, and their
     * evaluations count toward its row.
     */
    private static List<Judged> withTies(CheckTarget t, FastProbe.ProjectedOutput output, List<Judged> judged) {
        List<KinkEntry> kinks = new ArrayList<>();
        judged.forEach(j -> kinks.addAll(j.outcome().kinks()));
        if (kinks.size() < 2) {
            return judged;
        }
        NumericalDerivative first = judged.get(0).projection().derivative();
        // the rule of the first projection with kinks
        Tolerance rule = judged.stream().filter(j -> !j.outcome().kinks().isEmpty()).findFirst().orElseThrow()
                .rule();
        Meter meter = Meter.counting(first::evaluations);
        Map<String, TieCheck.Violation> ties = TieCheck.violations(kinks, first, t.refInputs(), output.forTies(first),
                rule);
        long tieEvaluations = meter.cost().evaluations();
        List<Judged> withTies = new ArrayList<>();
        for (int i = 0; i < judged.size(); i++) {
            TieCheck.Violation tie = ties.get(judged.get(i).projection().in());
            Judged tied = tie == null ? judged.get(i) : judged.get(i).failingTies(tie);
            withTies.add(i == 0 ? tied.plusEvaluations(tieEvaluations) : tied);
        }
        return withTies;
    }

    /**
     * The report's row for one projection: its numbers, and what it cost.
     *
     * @param shared the calls it shares with other rows that this row counts (the backward pass, the projection)
     */
    private static GradientResult row(CheckTarget t, String out, Judged j, Meter.Cost shared) {
        FastProbe.Outcome outcome = j.outcome();
        double abs = Math.abs(outcome.analytic() - outcome.numerical());
        Meter.Cost cost = shared.plus(j.cost());
        return new GradientResult(out, j.projection().in(), CheckKind.FAST, t.order(), outcome.verdict(),
                Double.isNaN(abs) ? Double.POSITIVE_INFINITY : abs,
                Tolerance.relativeError(outcome.analytic(), outcome.numerical()), outcome.score(),
                new WorstElement(new long[0], new long[0], outcome.analytic(), outcome.numerical()),
                cost.evaluations(), cost.seconds(), outcome.note(), null);
    }

    /**
     * The inputs that failed, checked again in full (when their blocks fit the budget), so that the report names
     * the worst element.
     */
    private static List<GradientResult> recheckFailures(CheckTarget t, Settings s, MemoryBudget budget,
                                                        List<GradientResult> results) {
        Set<String> failed = new LinkedHashSet<>();
        results.stream().filter(r -> !r.verdict().passed() && !NarrowedRow.named(r)).forEach(r -> failed.add(r.input()));
        if (failed.isEmpty()) {
            return results;
        }
        if (budget.fits(new FullCheck().footprint(BlockSizes.of(t, s)).bytes())) {
            try {
                return withFullRecheck(results, FullCheck.blocks(t, s, List.copyOf(failed), budget));
            } catch (OverBudget e) {
                // the compressed evaluations could not settle the blocks, and dense ones do not fit: as below
            }
        }
        results.replaceAll(r -> r.verdict().passed() || NarrowedRow.named(r) ? r : r.withNote("too large to recheck in full under"
                + " --max-memory: rerun with max_elements to see the worst element"));
        return results;
    }

    private static double rootSumOfSquares(double[] g, double[] u) {
        double sum = 0;
        for (int i = 0; i < g.length; i++) {
            sum += g[i] * u[i] * g[i] * u[i];
        }
        return Math.sqrt(sum);
    }

    /** Each failing input's fast rows give way to its full rows, which say what the fast check found. */
    private static List<GradientResult> withFullRecheck(List<GradientResult> fast, List<GradientResult> full) {
        List<GradientResult> merged = new ArrayList<>();
        for (GradientResult f : fast) {
            GradientResult replacement = full.stream()
                    .filter(g -> g.output().equals(f.output()) && g.input().equals(f.input()))
                    .findFirst().orElse(null);
            if (replacement == null || NarrowedRow.named(f)) {
                merged.add(f);
            } else {
                WorstElement p = f.worst();
                merged.add(replacement.withNote("fast mode " + f.verdict().reportName() + (f.note() != null ? ""
                        : " (v'Ju analytic " + p.analytic() + ", numerical " + p.numerical() + ")")
                        + "; rechecked in full"));
            }
        }
        return merged;
    }

    private static boolean allZero(double[] values) {
        for (double x : values) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
