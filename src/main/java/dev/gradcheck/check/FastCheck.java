package dev.gradcheck.check;

import static dev.gradcheck.spec.MemoryBudget.saturatingAdd;
import static dev.gradcheck.spec.MemoryBudget.saturatingMul;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import dev.gradcheck.spec.MemoryBudget;
import java.util.ArrayList;
import java.util.HashMap;
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
        boolean fullRecheckFits = budget.fits(new FullCheck().footprint(BlockSizes.of(t, s)).bytes());
        Map<String, INDArray> u = new HashMap<>();
        Map<String, Map<String, Double>> numerical = new HashMap<>();
        Map<String, Long> evals = new HashMap<>();
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
            Map<String, double[]> d = t.numerical(s, counter).along(Map.of(in, u.get(in)));
            Map<String, Double> byOutput = new HashMap<>();
            for (String out : t.outputs()) {
                byOutput.put(out, dot(Flat.values(v.get(out)), d.get(out)));
            }
            numerical.put(in, byOutput);
            evals.put(in, counter.value());
            seconds.put(in, (System.nanoTime() - start) / 1e9);
        }
        List<GradientResult> results = new ArrayList<>();
        Set<String> failed = new LinkedHashSet<>();
        for (String out : t.outputs()) {
            long start = System.nanoTime();
            Map<String, INDArray> cotangents = t.zeroCotangents();
            cotangents.put(out, v.get(out).castTo(cotangents.get(out).dataType()));
            Map<String, INDArray> grads = t.test().vjp(t.testInputs(), cotangents, t.wrt());
            double backwardSeconds = (System.nanoTime() - start) / 1e9;
            double scale = t.scale(out);
            for (String in : t.wrt()) {
                INDArray g = grads.get(in);
                double[] flat = g == null ? new double[0] : AnalyticJacobian.flatGradient(g, t.testInputs().get(in), in);
                double analytic = g == null ? 0 : dot(flat, Flat.values(u.get(in)));
                double num = numerical.get(in).get(out);
                Verdict verdict = verdict(analytic, num, allZero(flat), s, scale);
                if (!verdict.passed()) {
                    failed.add(in);
                }
                double abs = Math.abs(analytic - num);
                results.add(new GradientResult(out, in, CheckKind.FAST, t.order(), verdict,
                        Double.isNaN(abs) ? Double.POSITIVE_INFINITY : abs,
                        dev.gradcheck.spec.Tolerance.relativeError(analytic, num), s.tolerance().score(analytic, num),
                        new WorstElement(new long[0], new long[0], analytic, num), evals.get(in) + 1,
                        seconds.get(in) + backwardSeconds, null, null));
            }
        }
        if (failed.isEmpty()) {
            return results;
        }
        if (!fullRecheckFits) {
            results.replaceAll(r -> r.verdict().passed() ? r : r.withNote("too large to recheck in full under"
                    + " --max-memory: rerun with max_elements to see the worst element"));
            return results;
        }
        return withFullRecheck(results, FullCheck.blocks(t, s, List.copyOf(failed)));
    }

    private static Verdict verdict(double analytic, double numerical, boolean analyticZero, Settings s, double scale) {
        if (analyticZero && Math.abs(numerical) > JacobianComparison.noiseFloor(scale, s.delta())) {
            return Verdict.ZERO_GRADIENT;
        }
        return s.tolerance().score(analytic, numerical) <= 1 ? Verdict.PASS : Verdict.MISMATCH;
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
                merged.add(replacement.withNote("fast mode " + f.verdict().reportName() + " (v'Ju analytic "
                        + p.analytic() + ", numerical " + p.numerical() + "); rechecked in full"));
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

    private static double dot(double[] a, double[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
