package dev.gradcheck.check;

import static dev.gradcheck.spec.MemoryBudget.saturatingAdd;
import static dev.gradcheck.spec.MemoryBudget.saturatingMul;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
final class FastCheck implements CheckMode {

    /** Only vectors: u and the numerical projections per input, v and the analytic ones per output. */
    @Override
    public Footprint footprint(BlockSizes blocks) {
        return new Footprint(blocks.bytesOverBlocks((n, m) -> saturatingMul(saturatingAdd(n, m), 2)),
                "its fast-mode vectors");
    }

    /** @param budget decides whether a failing input's full blocks fit, for the recheck */
    @Override
    public List<GradientResult> run(CheckTarget t, Settings s, MemoryBudget budget) {
        if (t.reference().clippedGraph().isPresent()) {
            // a reference split at error clips gives whole blocks only, no derivative along u to project
            return new FullCheck().run(t, s, budget);
        }
        Map<String, INDArray> u = new HashMap<>();
        Map<String, NumericalDerivative> derivatives = new HashMap<>();
        Map<String, Counter> counters = new HashMap<>();
        Map<String, Long> alongEvaluations = new HashMap<>();
        Map<String, Map<String, Double>> numerical = new HashMap<>();
        Map<String, Double> seconds = new HashMap<>();
        Map<String, INDArray> v = new HashMap<>();
        for (String out : t.outputs()) {
            INDArray unit = Seeded.unit(s.samplingSeed(), "fast-v:" + out, t.refAtX().get(out).shape());
            v.put(out, t.order() == 1 ? BlockMask.withoutMaskedRows(s.mask(), out, unit) : unit);
        }
        for (String in : t.wrt()) {
            long start = System.nanoTime();
            INDArray unit = Seeded.unit(s.samplingSeed(), "fast-u:" + in, t.refInputs().get(in).shape());
            u.put(in, t.order() == 1 ? BlockMask.withoutMaskedColumns(s.mask(), in, unit) : unit);
            Counter counter = new Counter();
            NumericalDerivative d = t.numerical(s, counter);
            Map<String, double[]> along = d.along(Map.of(in, u.get(in)));
            Map<String, Double> byOutput = new HashMap<>();
            for (String out : t.outputs()) {
                byOutput.put(out, FastProbe.dot(Flat.values(v.get(out)), along.get(out)));
            }
            numerical.put(in, byOutput);
            derivatives.put(in, d);
            counters.put(in, counter);
            alongEvaluations.put(in, counter.value());
            seconds.put(in, (System.nanoTime() - start) / 1e9);
        }
        List<GradientResult> results = new ArrayList<>();
        Set<String> failed = new LinkedHashSet<>();
        for (String out : t.outputs()) {
            long start = System.nanoTime();
            Map<String, INDArray> cotangents = t.zeroCotangents();
            cotangents.put(out, v.get(out).castTo(cotangents.get(out).dataType()));
            Map<String, INDArray> grads = t.test().vjpTransient(t.testInputs(), cotangents, t.wrt());
            // read out now: the judging below evaluates the functions again, which may overwrite these arrays
            Map<String, double[]> flatGrads = new HashMap<>();
            for (String in : t.wrt()) {
                INDArray g = grads.get(in);
                flatGrads.put(in, g == null ? null : AnalyticJacobian.flatGradient(g, t.testInputs().get(in), in));
            }
            double backwardSeconds = (System.nanoTime() - start) / 1e9;
            double scale = t.scale(out);
            double[] vFlat = Flat.values(v.get(out));
            double[] base = Flat.values(t.refAtX().get(out));
            double magnitude = FastProbe.dot(absolute(vFlat), absolute(base));
            Map<String, FastProbe.Outcome> outcomes = new LinkedHashMap<>();
            Map<String, Long> judgeEvaluations = new HashMap<>();
            Map<String, Double> judgeSeconds = new HashMap<>();
            Tolerance tieRule = null;
            for (String in : t.wrt()) {
                long judgeStart = System.nanoTime();
                long evaluationsBefore = counters.get(in).value();
                double[] g = flatGrads.get(in);
                double[] flat = g == null ? new double[Math.toIntExact(u.get(in).length())] : g;
                double[] uFlat = Flat.values(u.get(in));
                double analytic = FastProbe.dot(flat, uFlat);
                double num = numerical.get(in).get(out);
                // the scale of the projection's rounding: its terms' root sum of squares, which a random-signed sum
                // of terms with independent rounding reaches; their plain sum would grow like √n and hide a 0.1% error
                Tolerance rule = s.toleranceFor(t.forwardNoise(out), rootSumOfSquares(flat, uFlat));
                FastProbe probe = new FastProbe(derivatives.get(in), t.refInputs(), in, out, vFlat, flat, rule,
                        magnitude, base);
                double h = derivatives.get(in).stepAlong(Map.of(in, u.get(in)));
                FastProbe.Outcome outcome = judge(probe, u.get(in), analytic, num, g == null || allZero(flat), rule,
                        probe.roundingError(h), s, scale);
                tieRule = tieRule == null && !outcome.kinks().isEmpty() ? rule : tieRule;
                outcomes.put(in, outcome);
                judgeEvaluations.put(in, counters.get(in).value() - evaluationsBefore);
                judgeSeconds.put(in, (System.nanoTime() - judgeStart) / 1e9);
            }
            List<BlockJudge.KinkEntry> kinks = new ArrayList<>();
            outcomes.values().forEach(o -> kinks.addAll(o.kinks()));
            if (kinks.size() >= 2) { // ties within an input and across inputs, along directions over all of them
                NumericalDerivative d = derivatives.get(t.wrt().get(0));
                long before = counters.get(t.wrt().get(0)).value();
                TieCheck.violations(kinks, d, FastProbe.lines(d, out, vFlat), t.refInputs(),
                                row -> "v'" + TieCheck.element(out, new long[0], 0), new double[] {magnitude},
                                tieRule, magnitude)
                        .forEach((in, tie) -> outcomes.put(in, outcomes.get(in).failingTies(tie)));
                judgeEvaluations.merge(t.wrt().get(0), counters.get(t.wrt().get(0)).value() - before, Long::sum);
            }
            for (String in : t.wrt()) {
                FastProbe.Outcome outcome = outcomes.get(in);
                if (!outcome.verdict().passed()) {
                    failed.add(in);
                }
                double abs = Math.abs(outcome.analytic() - outcome.numerical());
                results.add(new GradientResult(out, in, CheckKind.FAST, t.order(), outcome.verdict(),
                        Double.isNaN(abs) ? Double.POSITIVE_INFINITY : abs,
                        Tolerance.relativeError(outcome.analytic(), outcome.numerical()), outcome.score(),
                        new WorstElement(new long[0], new long[0], outcome.analytic(), outcome.numerical()),
                        alongEvaluations.get(in) + judgeEvaluations.get(in) + 1,
                        seconds.get(in) + backwardSeconds + judgeSeconds.get(in), outcome.note(), null));
            }
        }
        if (failed.isEmpty()) {
            return results;
        }
        if (!budget.fits(new FullCheck().footprint(BlockSizes.of(t, s)).bytes())) {
            results.replaceAll(r -> r.verdict().passed() ? r : r.withNote("too large to recheck in full under"
                    + " --max-memory: rerun with max_elements to see the worst element"));
            return results;
        }
        return withFullRecheck(results, FullCheck.blocks(t, s, List.copyOf(failed)));
    }

    /**
     * The verdict on one projection: a zero backward against a non-zero numerical derivative fails whatever the
     * tolerance; an agreement within the rule and the numerical side's rounding passes; anything else is looked at
     * more closely along u ({@link FastProbe}: the finite difference's own error, kinks).
     */
    private static FastProbe.Outcome judge(FastProbe probe, INDArray u, double analytic, double numerical,
                                           boolean analyticZero, Tolerance rule, double rounding, Settings s,
                                           double scale) {
        if (analyticZero && Math.abs(numerical) > JacobianComparison.noiseFloor(scale, s.delta())) {
            return new FastProbe.Outcome(Verdict.ZERO_GRADIENT, analytic, numerical, rule.score(analytic, numerical),
                    null);
        }
        double score = JacobianComparison.score(rule, analytic, numerical, rounding);
        if (score <= 1) {
            return new FastProbe.Outcome(Verdict.PASS, analytic, numerical, score, null);
        }
        if (!Double.isFinite(analytic) || !Double.isFinite(numerical)) {
            return new FastProbe.Outcome(Verdict.MISMATCH, analytic, numerical, score, null);
        }
        return probe.resolve(u, analytic, numerical);
    }

    private static double rootSumOfSquares(double[] g, double[] u) {
        double sum = 0;
        for (int i = 0; i < g.length; i++) {
            sum += g[i] * u[i] * g[i] * u[i];
        }
        return Math.sqrt(sum);
    }

    private static double[] absolute(double[] values) {
        double[] a = new double[values.length];
        for (int i = 0; i < a.length; i++) {
            a[i] = Math.abs(values[i]);
        }
        return a;
    }

    /** Each failing input's fast rows give way to its full rows, which say what the fast check found. */
    private static List<GradientResult> withFullRecheck(List<GradientResult> fast, List<GradientResult> full) {
        List<GradientResult> merged = new ArrayList<>();
        for (GradientResult f : fast) {
            GradientResult replacement = full.stream()
                    .filter(g -> g.output().equals(f.output()) && g.input().equals(f.input()))
                    .findFirst().orElse(null);
            if (replacement == null) {
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
