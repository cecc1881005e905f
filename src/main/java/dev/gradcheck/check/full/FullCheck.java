package dev.gradcheck.check.full;

import static dev.gradcheck.spec.MemoryBudget.saturatingAdd;
import static dev.gradcheck.spec.MemoryBudget.saturatingMul;

import dev.gradcheck.check.colouring.ColouringTuning;
import dev.gradcheck.check.colouring.CompressedJacobians;
import dev.gradcheck.check.colouring.Sides;
import dev.gradcheck.check.dense.BlockDiagnosis;
import dev.gradcheck.check.dense.BlockJudge;
import dev.gradcheck.check.dense.KinkEntry;
import dev.gradcheck.check.dense.BlockMask;
import dev.gradcheck.check.dense.TieCheck;
import dev.gradcheck.check.jacobian.AnalyticJacobian;
import dev.gradcheck.check.jacobian.NumericalJacobian;
import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.check.jacobian.SplitNumericalJacobian;
import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.EntryFilter;
import dev.gradcheck.check.numeric.FiniteDifferences;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.check.numeric.LargestFinite;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.numeric.NumericTuning;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.numeric.Seeded;
import dev.gradcheck.check.numeric.SparseBlock;
import dev.gradcheck.check.target.BlockSizes;
import dev.gradcheck.check.target.CheckMode;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.HeldBytes;
import dev.gradcheck.check.target.OverBudget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.check.twosided.TwoSidedCompression;
import dev.gradcheck.check.twosided.TwoSidedTuning;
import dev.gradcheck.op.ClippedGraph;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Sampling;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Full mode: the whole Jacobian block of every (output, input) pair, numerical against analytic, entry by entry.
 * With {@code max_elements: N}, a seeded sample of N input elements (columns) is differentiated numerically, and
 * the backward builds at most N output rows per output, chosen first among the rows those columns influence so
 * that a diagonal Jacobian is still checked on its diagonal.
 */
public final class FullCheck implements CheckMode {

    /**
     * A numerical and an analytic block of doubles per (output, checked input), each cut down by
     * {@code max_elements}: the numerical block to the sampled columns, the analytic one to the sampled rows.
     */
    @Override
    public Footprint footprint(BlockSizes blocks) {
        if (blocks.compressible()) {
            // what is weighed before the forward pass: both sides' vectors; the pattern's entries are weighed
            // once the pattern is known, and dense blocks only when a target needs them (OverBudget)
            return new Footprint(blocks.bytesOverBlocks((n, m) -> saturatingMul(saturatingAdd(n, m),
                    TwoSidedTuning.VECTORS_HELD)), "its compressed evaluations");
        }
        return denseFootprint(blocks);
    }

    /** What the blocks hold computed line by line (dense mode, or a target the compressed paths cannot settle). */
    static Footprint denseFootprint(BlockSizes blocks) {
        Integer sample = blocks.sample();
        long bytes = blocks.bytesOverBlocks((n, m) -> sample == null ? saturatingMul(saturatingMul(m, n), 2)
                : saturatingAdd(saturatingMul(Math.min(sample, m), n), saturatingMul(m, Math.min(sample, n))),
                HeldBytes.DENSE_PER_SIDE);
        return new Footprint(bytes, "its Jacobians (output elements x input elements, numerical and analytic"
                + (sample == null ? ")" : ", sampled)"));
    }

    @Override
    public List<GradientResult> run(CheckTarget t, Settings s, MemoryBudget budget) {
        return blocks(t, s, t.wrt(), budget);
    }

    /**
     * The blocks of the given inputs only (fast mode rechecks its failing inputs in full): full mode's paths in
     * turn, each settling the target, declining it (saying why), or failing it (a block disagrees); the dense path
     * settles every target it is given.
     */
    public static List<GradientResult> blocks(CheckTarget t, Settings s, List<String> inputs, MemoryBudget budget) {
        try (ParallelLines threads = new ParallelLines(s.threads())) {
            Paths paths = new Paths(t, s, inputs, budget, threads,
                    CompressedJacobians.denseBecause(s, t.reference().clippedGraph().isPresent(), loosestRule(t, s)));
            Answer answer = new Answer.Declined(null, 0);
            for (Path next : List.<Path>of(paths::twoSided, paths::oneSided, paths::dense)) {
                answer = next.take(answer);
                if (answer instanceof Answer.Settled settled) {
                    return settled.rows();
                }
            }
            throw new IllegalStateException("the dense path settles every target");
        }
    }

    /** What one of full mode's paths answers for a target. */
    private sealed interface Answer {

        /** Why the target was not settled, in a phrase, for a refusal's reason; null when no path tried it. */
        String why();

        /** The least budget under which both sides compressed would run, where memory alone declined them; else 0. */
        default long needs() {
            return 0;
        }

        /** The target's rows. */
        record Settled(List<GradientResult> rows) implements Answer {
            @Override
            public String why() {
                return null;
            }
        }

        /** Not taken here, or sent on: the next path takes the target. */
        record Declined(String why, long needs) implements Answer {}

        /** A block disagrees: the dense path judges the target (kinks, ties, diagnoses), the paths between skip it. */
        record Failed(String why) implements Answer {}
    }

    /** One of full mode's paths, given what the path before it answered. */
    @FunctionalInterface
    private interface Path {
        Answer take(Answer before);
    }

    /**
     * Full mode's three paths over one target: both sides compressed, one side compressed, dense blocks.
     *
     * @param denseBecause why compression cannot judge this target (a rule too loose, clips, a mask, a capture), or
     *                     null
     */
    private record Paths(CheckTarget t, Settings s, List<String> inputs, MemoryBudget budget, ParallelLines threads,
                         String denseBecause) {

        /**
         * Both sides compressed (TwoSidedCompression): it settles a passing target, and a failing one whose dense
         * blocks do not fit (the failing entries' values are the dense check's own already); a failing target whose
         * dense blocks fit is judged by the dense path, where kinks are probed and ties judged.
         */
        Answer twoSided(Answer before) {
            if (denseBecause != null) {
                return before;
            }
            boolean denseFits = budget.fits(denseBytes(t, s));
            if (denseFits && s.capture() != JacobianCapture.NONE) {
                // a run that shows matrices gets them where they fit, and the verdict compression gives otherwise
                // (a report format never changes a verdict: a block without matrices is listed as not drawn)
                return new Answer.Settled(denseBlocks(t, s, inputs, threads));
            }
            // where dense blocks do not fit, both sides compressed are tried whatever they save: the check's other
            // answer is a refusal, which validate (weighing the compressed footprint) would not have given
            TwoSidedCompression.Attempt twoSided = TwoSidedCompression.attempt(t, s, inputs, threads, budget,
                    twoSidedGate(denseFits));
            if (twoSided.needs() > 0 && !denseFits && InputByInput.eachFits(t, s, inputs, budget, twoSidedGate(false))) {
                twoSided = InputByInput.attempt(t, s, inputs, threads, budget, twoSidedGate(false));
            }
            if (twoSided.rows() != null && (twoSided.passed() || !denseFits)) {
                return new Answer.Settled(twoSided.rows());
            }
            return twoSided.rows() != null ? new Answer.Failed(twoSided.why())
                    : new Answer.Declined(twoSided.why(), twoSided.needs());
        }

        /**
         * One side compressed: what the two-sided path declined goes where dense blocks can be computed (the
         * one-sided path recomputes lines in full, and a block that disagrees anywhere is judged as plain full mode
         * judges it), so compression never changes a verdict.
         */
        Answer oneSided(Answer before) {
            if (denseBecause != null || before instanceof Answer.Failed) {
                return before;
            }
            requireDenseFits(t, s, budget, before);
            if (!budget.fits(oneSidedBytes(t, s))) {
                return before; // its entries would not fit where dense blocks do: the dense path takes the target
            }
            List<GradientResult> compressed = compressedBlocks(t, s, inputs, threads);
            return compressed != null ? new Answer.Settled(compressed) : new Answer.Failed("a block disagrees");
        }

        /** Dense blocks, refused as a spec over the budget is when they do not fit. */
        Answer dense(Answer before) {
            requireDenseFits(t, s, budget, before);
            return new Answer.Settled(denseBlocks(t, s, inputs, threads));
        }
    }

    /**
     * What validate asks of full mode beyond the footprint it weighs before anything runs: where dense blocks do not
     * fit, whether both sides compressed would be tried at all (a window pattern the backward shows, its entries and
     * a batch of evaluations under the budget), probed as the check probes it. A target that would be declined there
     * is refused here with the check's own reason, so validate and check refuse the same specs; what only the run
     * can tell (a screen sending back more than the search can locate) is still the check's to find.
     *
     * @throws OverBudget where the check would refuse the target before its two-sided run
     */
    public static void weigh(CheckTarget t, Settings s, MemoryBudget budget) {
        if (budget.fits(denseBytes(t, s))) {
            return;
        }
        if (CompressedJacobians.denseBecause(s, t.reference().clippedGraph().isPresent(), loosestRule(t, s))
                != null) {
            requireDenseFits(t, s, budget, new Answer.Declined(null, 0));
            return;
        }
        TwoSidedCompression.Attempt declined = TwoSidedCompression.declined(t, s, t.wrt(), budget,
                twoSidedGate(false));
        if (declined != null && !(declined.needs() > 0 && InputByInput.eachFits(t, s, t.wrt(), budget,
                twoSidedGate(false)))) {
            requireDenseFits(t, s, budget, new Answer.Declined(declined.why(), declined.needs()));
        }
    }

    /**
     * Where dense blocks fit, both sides compressed are tried only where they save enough; where they do not, always
     * (the other answer is a refusal), locating what the screen sends back.
     */
    private static TwoSidedCompression.Gate twoSidedGate(boolean denseFits) {
        return (denseFits ? TwoSidedCompression.Gate.DEFAULT : TwoSidedCompression.Gate.ALWAYS).locating(!denseFits);
    }

    /**
     * What one side compressed holds ({@link HeldBytes#ONE_SIDED} per entry of every block): its blocks' nonzeros are
     * known only once the known side is computed, so every entry is counted.
     */
    private static long oneSidedBytes(CheckTarget t, Settings s) {
        return BlockSizes.of(t, s).bytesOverBlocks(MemoryBudget::saturatingMul, HeldBytes.ONE_SIDED);
    }

    private static long denseBytes(CheckTarget t, Settings s) {
        return denseFootprint(BlockSizes.of(t, s)).bytes();
    }

    /**
     * Dense blocks from here on: refused, as a spec over the budget is, when they do not fit, with why the two-sided
     * path did not settle the target (its {@link Answer#why}, null when it was not tried) and the least budget that
     * would let a path run: the two-sided one's where memory alone declined it, else the dense blocks'.
     */
    private static void requireDenseFits(CheckTarget t, Settings s, MemoryBudget budget, Answer before) {
        Footprint dense = denseFootprint(BlockSizes.of(t, s));
        if (!budget.fits(dense.bytes())) {
            String why = before.why();
            boolean twoSided = before.needs() > 0;
            throw new OverBudget(new Footprint(dense.bytes(), dense.what()
                    + (why == null ? "" : ", needed because both sides compressed could not settle it (" + why + ")")),
                    new OverBudget.Fits(twoSided ? before.needs() : dense.bytes(), twoSided
                            ? "both sides compressed" : "the dense blocks"));
        }
    }

    /** The loosest default rule any output of the target is judged by, at magnitude 1 (or the spec's own). */
    private static Tolerance loosestRule(CheckTarget t, Settings s) {
        Tolerance loosest = s.toleranceFor(0, 1);
        for (String out : t.outputs()) {
            Tolerance rule = s.toleranceFor(t.forwardNoise(out), 1);
            if (rule.score(1 + ColouringTuning.RESOLUTION, 1) < loosest.score(1 + ColouringTuning.RESOLUTION,
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
        Compression compressed = compress(t, s, inputs, threads);
        List<GradientResult> results = new ArrayList<>();
        for (String out : t.outputs()) {
            double scale = t.scale(out);
            for (String in : inputs) {
                Meter meter = Meter.timing();
                SparseBlock block = compressed.blocks().block(out, in);
                JacobianComparison.Row row = compressed.compare(out, in, s, scale);
                if (!row.verdict().passed() || row.withinError() > 0 || row.maxScore() > NumericTuning.AGAIN_ABOVE) {
                    return null; // entries near or beyond the tolerance are judged at their most precise step
                }
                // a passing block agrees everywhere (no mask, no capture here: denseBecause and blocks())
                Mismatches found = new Mismatches(0, Flat.size(block.outputShape()) * Flat.size(block.inputShape()),
                        0, null, List.of(), null, null);
                double seconds = compressed.blocks().numericalSeconds().getOrDefault(in, 0.0)
                        + compressed.blocks().analyticSeconds().getOrDefault(out, 0.0)
                        + meter.seconds();
                results.add(row.toResult(new JacobianComparison.Compared(out, in, CheckKind.JACOBIAN, t.order()),
                        compressed.evaluations(out, in, t.outputs().get(0).equals(out), inputs.get(0).equals(in)),
                        seconds, row.errorNote(), null).withDiagnosis(found, null));
            }
        }
        return results;
    }

    /**
     * A target's blocks with one side compressed, as {@link CompressedJacobians} gives them, with the sides that
     * counted their evaluations and the judging the entries get.
     */
    public record Compression(CompressedJacobians.Blocks blocks, NumericalJacobian numerical, AnalyticJacobian analytic,
                      CompressedJacobians.Judging judging) {

        /** Block (out, in) compared as compression gives it, by its output's rule at the block's scale. */
        public JacobianComparison.Row compare(String out, String in, Settings s, double outputScale) {
            SparseBlock block = blocks.block(out, in);
            Tolerance rule = judging.rule(out, in, largestNumerical(block));
            return JacobianComparison.compare(block, new JacobianComparison.Criteria(rule, s.delta(), outputScale));
        }

        /**
         * What block (out, in) cost: its input's forward evaluations, counted in its first output's row, and its
         * output's backward passes, counted in its first input's row (each evaluation serves every block of its
         * input or output: the rows' counts add up to the evaluations made).
         */
        long evaluations(String out, String in, boolean firstOutput, boolean firstInput) {
            return (firstOutput ? numerical.evaluations(in) : 0) + (firstInput ? analytic.evaluations(out) : 0);
        }
    }

    /** Every block of the target, the side the cheaper to know computed in full, the other compressed. */
    public static Compression compress(CheckTarget t, Settings s, List<String> inputs, ParallelLines threads) {
        Sides sides = Sides.of(t, s, inputs);
        AnalyticJacobian analytic = sides.analytic();
        NumericalJacobian numerical = sides.numerical();
        CompressedJacobians.Blocks blocks = CompressedJacobians.compute(analytic, numerical,
                CompressedJacobians.choose(analytic, numerical, FiniteDifferences.offsets(s.stencil()).length),
                sides.judging(), s.seed(), threads);
        return new Compression(blocks, numerical, analytic, sides.judging());
    }

    /** The largest finite |numerical entry| of a compressed block, the scale of its rounding. */
    private static double largestNumerical(SparseBlock block) {
        return LargestFinite.of(block.size(), block::numerical);
    }

    /**
     * One input's numerical side in dense mode.
     *
     * @param cols        the sampled columns, or null for all
     * @param derivative  what its columns were taken with, or null for a reference split at error clips (which has
     *                    no derivative to probe with)
     * @param evaluations counts its forward evaluations, the probes' and ties' included: read when a row is made,
     *                    after the judging that counts into it
     * @param blocks      its blocks, by output
     * @param seconds     the time they took
     */
    private record NumericalSide(String in, int[] cols, NumericalDerivative derivative, Counter evaluations,
                                 Map<String, Jacobian> blocks, double seconds,
                                 java.util.concurrent.atomic.AtomicLong reported) {

        NumericalSide(String in, int[] cols, NumericalDerivative derivative, Counter evaluations,
                      Map<String, Jacobian> blocks, double seconds) {
            this(in, cols, derivative, evaluations, blocks, seconds, new java.util.concurrent.atomic.AtomicLong());
        }

        /**
         * The forward evaluations made since the last row of this input took its count: every output's rows of an
         * input share its columns (and its probes count toward the row they were made for), so each is counted once.
         */
        long unreported() {
            long now = evaluations.value();
            return now - reported.getAndSet(now);
        }
    }

    /**
     * One output's analytic side in dense mode, with what its blocks are judged by.
     *
     * @param rows         the sampled rows, or null for all
     * @param blocks       its blocks, by input
     * @param passes       the backward passes they cost
     * @param seconds      the time they took
     * @param scale        the output's largest |y|
     * @param magnitudes   |y| per element of the output: the scale of each row's rounding
     * @param forwardNoise what the dtype under test adds to the output ({@link CheckTarget#forwardNoise})
     */
    private record AnalyticSide(String out, int[] rows, Map<String, Jacobian> blocks, long passes, double seconds,
                                double scale, double[] magnitudes, double forwardNoise) {}

    /**
     * One block as compared: its input's numerical side, both sides' entries, the entries the mask leaves out, the
     * block's largest |entry| and the rule that scale gives, and the judgement.
     */
    private record DenseBlock(NumericalSide side, Jacobian analytic, Jacobian numerical, EntryFilter masked,
                              double scale, Tolerance rule, BlockJudge.Judged judged, double seconds) {

        String in() {
            return side.in();
        }

        /** Each entry's score, under the bounds the block was judged by. */
        BlockDiagnosis.EntryScore score() {
            return (r, c) -> judged.score(rule, analytic, r, c);
        }
    }

    /**
     * Both sides line by line: every column differentiated (each input's numerical side), then per output every row
     * a backward pass (its analytic side) and its blocks judged.
     */
    private static List<GradientResult> denseBlocks(CheckTarget t, Settings s, List<String> inputs,
                                                    ParallelLines threads) {
        List<NumericalSide> numerical = inputs.stream().map(in -> numericalSide(t, s, in, threads)).toList();
        Map<String, INDArray> zeros = t.zeroCotangents();
        List<GradientResult> results = new ArrayList<>();
        for (String out : t.outputs()) {
            results.addAll(judgeOutput(t, s, analyticSide(t, s, out, zeros, numerical, threads), numerical));
        }
        return results;
    }

    /** Every row of one output, or the sampled ones, from a backward pass each. */
    private static AnalyticSide analyticSide(CheckTarget t, Settings s, String out, Map<String, INDArray> zeros,
                                             List<NumericalSide> numerical, ParallelLines threads) {
        Meter meter = Meter.timing();
        double scale = t.scale(out);
        int[] rows = sampledRows(t, s, out, scale, numerical);
        List<String> inputs = numerical.stream().map(NumericalSide::in).toList();
        AnalyticJacobian side = new AnalyticJacobian(t.test(), t.testInputs(), zeros, List.of(out), inputs);
        Map<String, Jacobian> blocks = side.rows(out, rows, threads);
        return new AnalyticSide(out, rows, blocks, side.evaluations(out), meter.seconds(), scale, t.magnitudes(out),
                t.forwardNoise(out));
    }

    /** Every column of one input, or the sampled ones, differentiated numerically. */
    private static NumericalSide numericalSide(CheckTarget t, Settings s, String in, ParallelLines threads) {
        Meter meter = Meter.timing();
        Counter evals = new Counter();
        Optional<ClippedGraph> clipped = t.reference().clippedGraph();
        if (clipped.isPresent()) { // its own reference, split at the clips, whole
            Map<String, Jacobian> blocks = SplitNumericalJacobian.compute(clipped.get(), t.refInputs(), in, s.delta(),
                    evals);
            return new NumericalSide(in, null, null, evals, blocks, meter.seconds());
        }
        int n = Math.toIntExact(Flat.size(t.refInputs().get(in).shape()));
        int[] cols = s.maxElements() == null ? null
                : Seeded.sample(s.samplingSeed(), "columns:" + in, n, s.maxElements());
        NumericalDerivative d = t.numerical(s, evals);
        Map<String, Jacobian> blocks = NumericalJacobian.compute(d, in, t.outputs(), t.outputShapes(), cols, threads);
        return new NumericalSide(in, cols, d, evals, blocks, meter.seconds());
    }

    /** One output's blocks judged, then the ties across its inputs, then the blocks' rows. */
    private static List<GradientResult> judgeOutput(CheckTarget t, Settings s, AnalyticSide analytic,
                                                    List<NumericalSide> numerical) {
        List<DenseBlock> blocks = numerical.stream().map(n -> judgeBlock(t, s, analytic, n)).toList();
        double largest = blocks.stream().mapToDouble(DenseBlock::scale).reduce(0, Math::max);
        Map<String, TieCheck.Violation> ties = ties(t, analytic, blocks,
                s.toleranceFor(analytic.forwardNoise(), largest));
        List<GradientResult> rows = new ArrayList<>();
        for (DenseBlock b : blocks) { // the output's backward passes counted once, in its first input's row
            rows.add(row(t, s, rows.isEmpty() ? analytic.passes() : 0, analytic, b, ties.get(b.in())));
        }
        return rows;
    }

    /** One block compared, and where it disagrees probed ({@link BlockJudge}). */
    private static DenseBlock judgeBlock(CheckTarget t, Settings s, AnalyticSide analytic, NumericalSide numerical) {
        Meter meter = Meter.timing();
        String out = analytic.out();
        String in = numerical.in();
        Jacobian a = analytic.blocks().get(in).select(null, numerical.cols());
        Jacobian n = numerical.blocks().get(out).select(analytic.rows(), null);
        // the mask names the op's own inputs and outputs: a second-order block is the backward's
        EntryFilter masked = t.order() == 1 ? BlockMask.of(s.mask(), out, in, n) : EntryFilter.NONE;
        NumericalDerivative d = numerical.derivative();
        double blockScale = largestMagnitude(n);
        NumericalError.Block errors = d == null ? null : errors(n, analytic.magnitudes(), d, in);
        Tolerance rule = s.toleranceFor(analytic.forwardNoise(), blockScale);
        BlockJudge.Judged judged = BlockJudge.judge(a, n, masked, errors,
                new JacobianComparison.Criteria(rule, s.delta(), analytic.scale()),
                d == null ? null : new BlockJudge.Columns(d, in, out));
        double seconds = numerical.seconds() + analytic.seconds() + meter.seconds();
        return new DenseBlock(numerical, a, n, masked, blockScale, rule, judged, seconds);
    }

    /** The report's row for one block: its figures (a wrong tie it takes part in fails it) and its diagnosis. */
    private static GradientResult row(CheckTarget t, Settings s, long passes, AnalyticSide analytic,
                                      DenseBlock block, TieCheck.Violation tie) {
        NumericalSide numerical = block.side();
        Jacobian a = block.analytic();
        Jacobian n = block.numerical();
        BlockJudge.Judged j = tie != null ? block.judged().failingTies(tie, n) : block.judged();
        Sampling sampling = analytic.rows() == null && numerical.cols() == null ? null : sampling(n);
        GradientResult row = j.row().toResult(
                new JacobianComparison.Compared(analytic.out(), numerical.in(), CheckKind.JACOBIAN, t.order()),
                numerical.unreported() + passes, block.seconds(), j.note(), sampling);
        EntryFilter kinks = j.atKinks();
        BlockDiagnosis.EntryScore score = block.score();
        double floor = JacobianComparison.noiseFloor(analytic.scale(), s.delta());
        return row.withDiagnosis(BlockDiagnosis.of(a, n, kinks, block.masked(), score, floor),
                s.capture().captures(row.verdict()) ? BlockDiagnosis.jacobians(a, n, kinks, block.masked(), score)
                        : null);
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
    public static double largestMagnitude(Jacobian j) {
        LargestFinite largest = new LargestFinite();
        for (double[] row : j.values()) {
            for (double v : row) {
                largest.add(v);
            }
        }
        return largest.value();
    }

    /** Ties across the inputs of one output: per input whose part in a tie is wrong, that tie. */
    private static Map<String, TieCheck.Violation> ties(CheckTarget t, AnalyticSide analytic, List<DenseBlock> blocks,
                                                        Tolerance rule) {
        List<KinkEntry> kinks = new ArrayList<>();
        blocks.forEach(b -> kinks.addAll(b.judged().kinks()));
        NumericalDerivative any = tieDerivative(blocks);
        if (kinks.size() < 2 || any == null) {
            return Map.of();
        }
        String out = analytic.out();
        long[] shape = t.refAtX().get(out).shape();
        return TieCheck.violations(kinks, any, t.refInputs(), new TieCheck.ProbedOutput(TieCheck.of(any, out),
                row -> TieCheck.element(out, shape, row), analytic.magnitudes(), analytic.scale()), rule);
    }

    /**
     * The derivative ties are probed with: any input's would do (each differentiates the reference at x); the
     * probes' evaluations count toward the row of the one taken, the first in a HashMap's order of the inputs, as
     * they always have.
     */
    private static NumericalDerivative tieDerivative(List<DenseBlock> blocks) {
        Map<String, NumericalDerivative> derivatives = new HashMap<>();
        blocks.forEach(b -> {
            if (b.side().derivative() != null) {
                derivatives.put(b.in(), b.side().derivative());
            }
        });
        return derivatives.values().stream().findFirst().orElse(null);
    }

    /** Every row, or (when sampling) up to N rows, three quarters of them among those the sampled columns move. */
    private static int[] sampledRows(CheckTarget t, Settings s, String out, double scale,
                                     List<NumericalSide> num) {
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
            for (NumericalSide side : num) {
                for (double v : side.blocks().get(out).values()[j]) {
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
