package dev.gradcheck.check;

import static dev.gradcheck.spec.MemoryBudget.saturatingAdd;
import static dev.gradcheck.spec.MemoryBudget.saturatingMul;

import dev.gradcheck.op.ClippedGraph;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Sampling;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Full mode: the whole Jacobian block of every (output, input) pair, numerical against analytic, entry by entry.
 * With {@code max_elements: N}, a seeded sample of N input elements (columns) is differentiated numerically, and
 * the backward builds at most N output rows per output, chosen first among the rows those columns influence so
 * that a diagonal Jacobian is still checked on its diagonal.
 */
final class FullCheck implements CheckMode {

    /**
     * A numerical and an analytic block of doubles per (output, checked input), each cut down by
     * {@code max_elements}: the numerical block to the sampled columns, the analytic one to the sampled rows.
     */
    @Override
    public Footprint footprint(BlockSizes blocks) {
        Integer sample = blocks.sample();
        long bytes = blocks.bytesOverBlocks((n, m) -> sample == null ? saturatingMul(saturatingMul(m, n), 2)
                : saturatingAdd(saturatingMul(Math.min(sample, m), n), saturatingMul(m, Math.min(sample, n))));
        return new Footprint(bytes, "its Jacobians (output elements x input elements, numerical and analytic"
                + (sample == null ? ")" : ", sampled)"));
    }

    @Override
    public List<GradientResult> run(CheckTarget t, Settings s, MemoryBudget budget) {
        return blocks(t, s, t.wrt());
    }

    /** The blocks of the given inputs only (fast mode rechecks its failing inputs in full). */
    static List<GradientResult> blocks(CheckTarget t, Settings s, List<String> inputs) {
        try (ParallelLines threads = new ParallelLines(s.threads())) {
            if (CompressedJacobians.denseBecause(s, t.reference().clippedGraph().isPresent(), loosestRule(t, s))
                    != null) {
                return denseBlocks(t, s, inputs, threads);
            }
            List<GradientResult> compressed = compressedBlocks(t, s, inputs, threads);
            // a block that disagrees anywhere: the target is judged as plain full mode judges it (kinks probed, ties
            // judged across inputs, masks and diagnoses from dense values), so compression never changes a verdict
            return compressed != null ? compressed : denseBlocks(t, s, inputs, threads);
        }
    }

    /** The loosest default rule any output of the target is judged by, at magnitude 1 (or the spec's own). */
    private static Tolerance loosestRule(CheckTarget t, Settings s) {
        Tolerance loosest = s.toleranceFor(0, 1);
        for (String out : t.outputs()) {
            Tolerance rule = s.toleranceFor(t.forwardNoise(out), 1);
            if (rule.score(1 + CompressedJacobians.RESOLUTION, 1) < loosest.score(1 + CompressedJacobians.RESOLUTION,
                    1)) {
                loosest = rule;
            }
        }
        return loosest;
    }

    /**
     * Every entry of every block, one side computed in full and the other in compressed groups, each entry judged by
     * the one rule with the dense check's own error bound for it.
     *
     * @return the rows, or null when any block disagrees (the caller judges the target dense)
     */
    private static List<GradientResult> compressedBlocks(CheckTarget t, Settings s, List<String> inputs,
                                                         ParallelLines threads) {
        Map<String, NumericalDerivative> derivatives = new HashMap<>();
        Map<String, Counter> numericalEvals = new HashMap<>();
        Map<String, long[]> inputShapes = new HashMap<>();
        Map<String, double[]> steps = new HashMap<>();
        for (String in : inputs) {
            Counter evals = new Counter();
            numericalEvals.put(in, evals);
            NumericalDerivative d = t.numerical(s, evals);
            derivatives.put(in, d);
            inputShapes.put(in, t.refInputs().get(in).shape());
            double[] h = new double[Math.toIntExact(Flat.size(inputShapes.get(in)))];
            for (int i = 0; i < h.length; i++) {
                h[i] = d.stepAt(in, i);
            }
            steps.put(in, h);
        }
        Map<String, long[]> outputShapes = t.outputShapes();
        Map<String, double[]> magnitudes = new HashMap<>();
        Map<String, Double> noise = new HashMap<>();
        t.outputs().forEach(out -> {
            magnitudes.put(out, t.magnitudes(out));
            noise.put(out, t.forwardNoise(out));
        });
        CompressedJacobians.Judging judging = new CompressedJacobians.Judging() {
            @Override
            public Tolerance rule(String out, String in, double blockScale) {
                return s.toleranceFor(noise.get(out), blockScale);
            }

            @Override
            public NumericalError errors(String out, String in) {
                return NumericalError.block(s.stencil(), magnitudes.get(out), steps.get(in));
            }
        };
        NumericalJacobian numerical = new NumericalJacobian(derivatives, numericalEvals, inputShapes, inputs,
                t.outputs(), outputShapes, t.reference(), t.refInputs());
        AnalyticJacobian analytic = new AnalyticJacobian(t.test(), t.testInputs(), t.zeroCotangents(), t.outputs(),
                inputs);
        CompressedJacobians.Blocks blocks = CompressedJacobians.compute(analytic, numerical,
                CompressedJacobians.choose(analytic, numerical, FiniteDifferences.offsets(s.stencil()).length),
                judging, s.seed(), outputShapes, inputShapes, threads);
        List<GradientResult> results = new ArrayList<>();
        for (String out : t.outputs()) {
            double scale = t.scale(out);
            for (String in : inputs) {
                long compareStart = System.nanoTime();
                SparseBlock block = blocks.block(out, in);
                Tolerance rule = judging.rule(out, in, largestNumerical(block));
                JacobianComparison.Row row = JacobianComparison.compare(block, rule, s.delta(), scale);
                if (!row.verdict().passed()) {
                    return null;
                }
                // a passing block agrees everywhere (no mask, no capture here: CompressedJacobians.denseBecause)
                Mismatches found = new Mismatches(0, Flat.size(block.outputShape()) * Flat.size(block.inputShape()),
                        0, null, List.of(), null, null);
                double seconds = blocks.numericalSeconds().getOrDefault(in, 0.0)
                        + blocks.analyticSeconds().getOrDefault(out, 0.0) + (System.nanoTime() - compareStart) / 1e9;
                results.add(row.toResult(out, in, CheckKind.JACOBIAN, t.order(),
                        numerical.evaluations(in) + analytic.evaluations(out), seconds, row.errorNote(), null)
                        .withDiagnosis(found, null));
            }
        }
        return results;
    }

    /** The largest finite |numerical entry| of a compressed block, the scale of its rounding. */
    private static double largestNumerical(SparseBlock block) {
        double largest = 0;
        for (int k = 0; k < block.size(); k++) {
            double v = block.numerical(k);
            largest = Double.isFinite(v) ? Math.max(largest, Math.abs(v)) : largest;
        }
        return largest;
    }

    /** Both sides line by line: every column differentiated, every row a backward pass. */
    private static List<GradientResult> denseBlocks(CheckTarget t, Settings s, List<String> inputs,
                                                    ParallelLines threads) {
        Map<String, int[]> cols = new HashMap<>();
        Map<String, NumericalDerivative> derivatives = new HashMap<>();
        Map<String, Counter> numericalEvals = new HashMap<>();
        Map<String, Map<String, Jacobian>> numerical = new HashMap<>();
        Map<String, Double> numericalSeconds = new HashMap<>();
        for (String in : inputs) {
            long start = System.nanoTime();
            long[] shape = t.refInputs().get(in).shape();
            int n = Math.toIntExact(Flat.size(shape));
            Counter evals = new Counter();
            numericalEvals.put(in, evals);
            Optional<ClippedGraph> clipped = t.reference().clippedGraph();
            if (clipped.isPresent()) { // its own reference, split at the clips, whole
                cols.put(in, null);
                numerical.put(in, SplitNumericalJacobian.compute(clipped.get(), t.refInputs(), in, s.delta(), evals));
            } else {
                cols.put(in, s.maxElements() == null ? null
                        : Seeded.sample(s.samplingSeed(), "columns:" + in, n, s.maxElements()));
                NumericalDerivative d = t.numerical(s, evals);
                derivatives.put(in, d);
                numerical.put(in, NumericalJacobian.compute(d, shape, in, t.outputs(), t.outputShapes(),
                        cols.get(in), threads, t.reference()));
            }
            numericalSeconds.put(in, (System.nanoTime() - start) / 1e9);
        }
        List<GradientResult> results = new ArrayList<>();
        Map<String, org.nd4j.linalg.api.ndarray.INDArray> zeros = t.zeroCotangents();
        for (String out : t.outputs()) {
            long start = System.nanoTime();
            double scale = t.scale(out);
            int[] rows = sampledRows(t, s, out, scale, numerical);
            Counter passes = new Counter();
            Map<String, Jacobian> analytic = AnalyticJacobian.compute(t.test(), t.testInputs(), zeros, out, inputs,
                    rows, passes, threads);
            double analyticSeconds = (System.nanoTime() - start) / 1e9;
            double[] magnitudes = t.magnitudes(out);
            double forwardNoise = t.forwardNoise(out);
            Map<String, BlockJudge.Judged> judged = new LinkedHashMap<>();
            Map<String, BlockDiagnosis.EntryScore> scores = new HashMap<>();
            Map<String, EntryFilter> masks = new HashMap<>();
            Map<String, Double> seconds = new HashMap<>();
            double largest = 0;
            for (String in : inputs) {
                long compareStart = System.nanoTime();
                Jacobian a = analytic.get(in).select(null, cols.get(in));
                Jacobian n = numerical.get(in).get(out).select(rows, null);
                // the mask names the op's own inputs and outputs: a second-order block is the backward's
                EntryFilter masked = t.order() == 1 ? BlockMask.of(s.mask(), out, in, n) : EntryFilter.NONE;
                NumericalDerivative d = derivatives.get(in);
                double blockScale = largestMagnitude(n);
                largest = Math.max(largest, blockScale);
                NumericalError.Block errors = d == null ? null : errors(n, magnitudes, d, in);
                Tolerance rule = s.toleranceFor(forwardNoise, blockScale);
                judged.put(in, BlockJudge.judge(a, n, masked, errors, rule, s.delta(), in, out, scale, d));
                NumericalError bounds = errors == null ? NumericalError.NONE : errors;
                scores.put(in, (r, c) -> JacobianComparison.score(rule, a.values()[r][c], n.values()[r][c],
                        bounds.at(r, c)));
                masks.put(in, masked);
                seconds.put(in, numericalSeconds.get(in) + analyticSeconds + (System.nanoTime() - compareStart) / 1e9);
            }
            Map<String, TieCheck.Violation> ties = ties(t, s, out, judged, derivatives, magnitudes,
                    s.toleranceFor(forwardNoise, largest));
            double floor = JacobianComparison.noiseFloor(scale, s.delta());
            for (String in : inputs) {
                Jacobian a = analytic.get(in).select(null, cols.get(in));
                Jacobian n = numerical.get(in).get(out).select(rows, null);
                BlockJudge.Judged j = ties.containsKey(in) ? judged.get(in).failingTies(ties.get(in), n)
                        : judged.get(in);
                Sampling sampling = rows == null && cols.get(in) == null ? null : sampling(n);
                GradientResult row = j.row().toResult(out, in, CheckKind.JACOBIAN, t.order(),
                        numericalEvals.get(in).value() + passes.value(), seconds.get(in), j.note(), sampling);
                EntryFilter kinks = j.atKinks();
                BlockDiagnosis.EntryScore score = scores.get(in);
                EntryFilter masked = masks.get(in);
                results.add(row.withDiagnosis(BlockDiagnosis.of(a, n, kinks, masked, score, floor),
                        s.capture().captures(row.verdict())
                                ? BlockDiagnosis.jacobians(a, n, kinks, masked, score) : null));
            }
        }
        return results;
    }

    /** Which elements a sampled block compared, as multi-indices (the counts say how many of how many). */
    private static Sampling sampling(Jacobian n) {
        List<long[]> inputs = new ArrayList<>();
        for (int c = 0; c < n.colCount(); c++) {
            inputs.add(Flat.unravel(n.col(c), n.inputShape()));
        }
        List<long[]> outputs = new ArrayList<>();
        for (int r = 0; r < n.rowCount(); r++) {
            outputs.add(Flat.unravel(n.row(r), n.outputShape()));
        }
        return new Sampling(n.colCount(), Flat.size(n.inputShape()), n.rowCount(), Flat.size(n.outputShape()),
                inputs, outputs);
    }

    /** The rounding bound of every entry of a block: its row's output magnitude over its column's step. */
    static NumericalError.Block errors(Jacobian n, double[] magnitudes, NumericalDerivative d, String in) {
        double[] rowMagnitudes = new double[n.rowCount()];
        for (int r = 0; r < rowMagnitudes.length; r++) {
            rowMagnitudes[r] = magnitudes[n.row(r)];
        }
        double[] colSteps = new double[n.colCount()];
        for (int c = 0; c < colSteps.length; c++) {
            colSteps[c] = d.stepAt(in, n.col(c));
        }
        return NumericalError.block(d.stencil(), rowMagnitudes, colSteps);
    }

    /** The largest |entry| of a block, the scale of its rounding. */
    static double largestMagnitude(Jacobian j) {
        double largest = 0;
        for (double[] row : j.values()) {
            for (double v : row) {
                largest = Double.isFinite(v) ? Math.max(largest, Math.abs(v)) : largest;
            }
        }
        return largest;
    }

    /** Ties across the inputs of one output: per input whose part in a tie is wrong, that tie. */
    private static Map<String, TieCheck.Violation> ties(CheckTarget t, Settings s, String out,
                                                        Map<String, BlockJudge.Judged> judged,
                                                        Map<String, NumericalDerivative> derivatives,
                                                        double[] magnitudes, Tolerance rule) {
        List<BlockJudge.KinkEntry> kinks = new ArrayList<>();
        judged.values().forEach(j -> kinks.addAll(j.kinks()));
        NumericalDerivative any = derivatives.values().stream().findFirst().orElse(null);
        if (kinks.size() < 2 || any == null) {
            return Map.of();
        }
        long[] shape = t.refAtX().get(out).shape();
        return TieCheck.violations(kinks, any, TieCheck.of(any, out), t.refInputs(),
                row -> TieCheck.element(out, shape, row), magnitudes, rule, t.scale(out));
    }

    /** Every row, or (when sampling) up to N rows, three quarters of them among those the sampled columns move. */
    private static int[] sampledRows(CheckTarget t, Settings s, String out, double scale,
                                     Map<String, Map<String, Jacobian>> num) {
        long m = Flat.size(t.refAtX().get(out).shape());
        if (s.maxElements() == null || m <= s.maxElements()) {
            return null;
        }
        int budget = s.maxElements();
        double floor = JacobianComparison.noiseFloor(scale, s.delta());
        List<Integer> influenced = new ArrayList<>();
        List<Integer> others = new ArrayList<>();
        for (int j = 0; j < m; j++) {
            boolean moved = false;
            for (Map<String, Jacobian> byOutput : num.values()) {
                for (double v : byOutput.get(out).values()[j]) {
                    moved |= !(Math.abs(v) <= floor);
                }
            }
            (moved ? influenced : others).add(j);
        }
        TreeSet<Integer> chosen = new TreeSet<>();
        long seed = s.samplingSeed();
        pick(influenced, Math.min(influenced.size(), (budget * 3 + 3) / 4), seed, "rows:" + out, chosen);
        pick(others, Math.min(others.size(), budget - chosen.size()), seed, "other-rows:" + out, chosen);
        pick(influenced, Math.min(influenced.size(), budget - chosen.size()), seed, "more-rows:" + out, chosen);
        return chosen.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void pick(List<Integer> from, int k, long seed, String label, TreeSet<Integer> into) {
        List<Integer> remaining = from.stream().filter(j -> !into.contains(j)).toList();
        int[] picked = Seeded.sample(seed, label, remaining.size(), Math.min(k, remaining.size()));
        if (picked == null) {
            into.addAll(remaining);
        } else {
            for (int p : picked) {
                into.add(remaining.get(p));
            }
        }
    }
}
