package dev.gradcheck.check;

import static dev.gradcheck.spec.MemoryBudget.saturatingAdd;
import static dev.gradcheck.spec.MemoryBudget.saturatingMul;

import dev.gradcheck.op.ClippedGraph;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Sampling;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.MemoryBudget;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
            if (CompressedJacobians.denseBecause(s, t.reference().clippedGraph().isPresent()) != null) {
                return denseBlocks(t, s, inputs, threads);
            }
            return compressedBlocks(t, s, inputs, threads);
        }
    }

    /**
     * Every entry of every block, one side computed in full and the other in compressed groups; a block that
     * disagrees anywhere is judged as a dense one (kinks probed), on values recomputed line by line where a group
     * did not pass its screen.
     */
    private static List<GradientResult> compressedBlocks(CheckTarget t, Settings s, List<String> inputs,
                                                         ParallelLines threads) {
        Map<String, NumericalDerivative> derivatives = new HashMap<>();
        Map<String, Counter> numericalEvals = new HashMap<>();
        Map<String, long[]> inputShapes = new HashMap<>();
        for (String in : inputs) {
            Counter evals = new Counter();
            numericalEvals.put(in, evals);
            derivatives.put(in, t.numerical(s, evals));
            inputShapes.put(in, t.refInputs().get(in).shape());
        }
        Map<String, long[]> outputShapes = t.outputShapes();
        NumericalJacobian numerical = new NumericalJacobian(derivatives, numericalEvals, inputShapes, inputs,
                t.outputs(), outputShapes, t.reference(), t.refInputs());
        AnalyticJacobian analytic = new AnalyticJacobian(t.test(), t.testInputs(), t.zeroCotangents(), t.outputs(),
                inputs);
        CompressedJacobians.Blocks blocks = CompressedJacobians.compute(analytic, numerical,
                CompressedJacobians.choose(analytic, numerical, FiniteDifferences.offsets(s.stencil()).length),
                s.tolerance(), s.seed(), outputShapes, inputShapes, threads);
        List<GradientResult> results = new ArrayList<>();
        for (String out : t.outputs()) {
            double scale = t.scale(out);
            for (String in : inputs) {
                long compareStart = System.nanoTime();
                SparseBlock block = blocks.block(out, in);
                JacobianComparison.Row row = JacobianComparison.compare(block, s.tolerance(), s.delta(), scale);
                Judged judged = new Judged(row, null, null);
                // a passing block agrees everywhere (no mask, no capture here: CompressedJacobians.denseBecause)
                Mismatches found = new Mismatches(0, Flat.size(block.outputShape()) * Flat.size(block.inputShape()),
                        0, null, List.of(), null, null);
                if (!row.verdict().passed()) { // judged, diagnosed and reported as a dense block
                    Jacobian[] dense = block.dense();
                    judged = judge(dense[0], dense[1], EntryFilter.NONE, s, in, out, scale, derivatives.get(in));
                    found = BlockDiagnosis.of(dense[0], dense[1], EntryFilter.columns(judged.kinks()),
                            EntryFilter.NONE, s.tolerance()::score, JacobianComparison.noiseFloor(scale, s.delta()));
                }
                double seconds = blocks.numericalSeconds().getOrDefault(in, 0.0)
                        + blocks.analyticSeconds().getOrDefault(out, 0.0) + (System.nanoTime() - compareStart) / 1e9;
                results.add(judged.row().toResult(out, in, CheckKind.JACOBIAN, t.order(),
                        numerical.evaluations(in) + analytic.evaluations(out), seconds, judged.note(), null)
                        .withDiagnosis(found, null));
            }
        }
        return results;
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
            for (String in : inputs) {
                long compareStart = System.nanoTime();
                Jacobian a = analytic.get(in).select(null, cols.get(in));
                Jacobian n = numerical.get(in).get(out).select(rows, null);
                // the mask names the op's own inputs and outputs: a second-order block is the backward's
                EntryFilter masked = t.order() == 1 ? BlockMask.of(s.mask(), out, in, n) : EntryFilter.NONE;
                Judged judged = judge(a, n, masked, s, in, out, scale, derivatives.get(in));
                double seconds = numericalSeconds.get(in) + analyticSeconds + (System.nanoTime() - compareStart) / 1e9;
                Sampling sampling = rows == null && cols.get(in) == null ? null : sampling(n);
                GradientResult row = judged.row().toResult(out, in, CheckKind.JACOBIAN, t.order(),
                        numericalEvals.get(in).value() + passes.value(), seconds, judged.note(), sampling);
                EntryFilter kinks = EntryFilter.columns(judged.kinks());
                double noise = JacobianComparison.noiseFloor(scale, s.delta());
                results.add(row.withDiagnosis(BlockDiagnosis.of(a, n, kinks, masked, s.tolerance()::score, noise),
                        s.capture().captures(row.verdict())
                                ? BlockDiagnosis.jacobians(a, n, kinks, masked, s.tolerance()::score) : null));
            }
        }
        return results;
    }

    /** @param kinks the columns left out at a kink, or null */
    private record Judged(JacobianComparison.Row row, String note, boolean[] kinks) {}

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

    /**
     * Compares a block; where it disagrees, probes the disagreeing columns for kinks and compares again without
     * them. Disagreement only at kinks is {@link Verdict#NONDIFFERENTIABLE}, not a mismatch.
     */
    private static Judged judge(Jacobian a, Jacobian n, EntryFilter masked, Settings s, String in, String out,
                                double scale, NumericalDerivative derivative) {
        JacobianComparison.Row row = JacobianComparison.compare(a, n, masked, s.tolerance(), s.delta(), scale);
        if (row.verdict().passed() || derivative == null) { // no plain forward derivative to probe kinks with
            return new Judged(row, null, null);
        }
        boolean[] kink = new boolean[n.colCount()];
        int kinks = 0;
        long[] firstKink = null;
        long[] wrongAtKink = null;
        for (int c = 0; c < n.colCount(); c++) {
            List<Integer> disagreeing = new ArrayList<>();
            for (int r = 0; r < n.rowCount(); r++) {
                if (!masked.skips(r, c) && !(s.tolerance().score(a.values()[r][c], n.values()[r][c]) <= 1)) {
                    disagreeing.add(r);
                }
            }
            if (disagreeing.isEmpty()) {
                continue;
            }
            int[] flatRows = disagreeing.stream().mapToInt(n::row).toArray();
            int col = c;
            double[] analytic = disagreeing.stream().mapToDouble(r -> a.values()[r][col]).toArray();
            KinkDetector.Probe probe = KinkDetector.probe(derivative, in, n.col(c), out, flatRows, analytic, scale);
            if (probe == KinkDetector.Probe.KINK) {
                kink[c] = true;
                kinks++;
                firstKink = firstKink == null ? Flat.unravel(n.col(c), n.inputShape()) : firstKink;
            } else if (probe == KinkDetector.Probe.WRONG_AT_KINK && wrongAtKink == null) {
                wrongAtKink = Flat.unravel(n.col(c), n.inputShape());
            }
        }
        String wrongNote = wrongAtKink == null ? null : in + Arrays.toString(wrongAtKink)
                + " sits at a kink, but the backward's value there is outside the one-sided slopes (not a subgradient)";
        if (kinks == 0) {
            return new Judged(row, wrongNote, null);
        }
        JacobianComparison.Row smooth = JacobianComparison.compare(a, n, EntryFilter.columns(kink).or(masked),
                s.tolerance(), s.delta(), scale);
        String note = kinks + " of " + n.colCount() + " elements of " + in + " sit at a nondifferentiable point (e.g. "
                + in + Arrays.toString(firstKink) + ") and were left out; the backward gives a subgradient there"
                + (wrongNote == null ? "" : "; " + wrongNote);
        if (smooth.verdict().passed()) {
            smooth = new JacobianComparison.Row(Verdict.NONDIFFERENTIABLE, smooth.maxAbs(), smooth.maxRel(),
                    smooth.maxScore(), smooth.worst());
        }
        return new Judged(smooth, note, kink);
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
