package dev.gradcheck.check.twosided;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.DrawnInputs;
import dev.gradcheck.check.FunctionFactory;
import dev.gradcheck.check.Functions;
import dev.gradcheck.check.GradientChecker;
import dev.gradcheck.check.OutputSelection;
import dev.gradcheck.check.Specs;
import dev.gradcheck.check.colouring.CompressedJacobiansTest.Corruption;
import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.colouring.PatternProbe;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.check.jacobian.AnalyticJacobian;
import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Both sides compressed ({@link TwoSidedCompression}) against dense full mode on real ND4J ops, right and wrong: a
 * right backward passes at a fraction of the evaluations; a wrong one either fails on the two-sided path with the
 * dense check's own worst entry, values and mismatch count (single wrong entries: their rows and columns are
 * recomputed line by line), or is sent to the one-sided path (values outside the guessed pattern), which fails it
 * as dense mode does (CompressedJacobiansTest). The path is forced here at sizes dense mode can still check.
 */
class TwoSidedCompressionTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());

    private static final String CONV = """
            op: conv2d
            attrs: {kH: 3, kW: 3, sH: 1, sW: 1, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 0, isNCHW: 0}
            inputs:
              x: {shape: [1, 3, 7, 7]}
              w: {shape: [3, 3, 3, 4]}
            """;

    private static final String STRIDED_CONV = """
            op: conv2d
            attrs: {kH: 3, kW: 3, sH: 2, sW: 2, pH: 1, pW: 1, dH: 1, dW: 1, isSameMode: 0, isNCHW: 0}
            inputs:
              x: {shape: [1, 2, 9, 9]}
              w: {shape: [3, 3, 2, 3]}
            """;

    private static final String SOFTMAX = """
            op: softmax
            attrs: {dimension: 1}
            inputs:
              x: {shape: [6, 20], init: {uniform: [-2, 2]}}
            """;

    private static final String MATMUL = """
            op: matmul
            inputs:
              a: {shape: [8, 10], init: {uniform: [-2, 2]}}
              b: {shape: [10, 6], init: {uniform: [-2, 2]}}
            """;

    private static final String TANH = """
            op: tanh
            inputs:
              x: {shape: [12, 12], init: {uniform: [-2, 2]}}
            """;

    static Stream<Arguments> rightBackwards() {
        return Stream.of(Arguments.of("conv2d", CONV), Arguments.of("conv2d, stride 2, padded", STRIDED_CONV),
                Arguments.of("softmax", SOFTMAX), Arguments.of("matmul", MATMUL), Arguments.of("tanh", TANH));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rightBackwards")
    void aRightBackwardPassesOnBothSidesCompressedWithTheDenseFigures(String name, String yaml) throws Exception {
        TwoSidedCompression.Attempt a = attempt(yaml, f -> f);
        assertNotNull(a.rows(), name + ": " + a.declined() + " " + (a.screen() == null ? "" : a.screen().first()));
        List<GradientResult> dense = jacobianRows(check(yaml + "compress: false\n", f -> f));
        assertEquals(dense.size(), a.rows().size());
        for (int k = 0; k < dense.size(); k++) {
            GradientResult d = dense.get(k);
            GradientResult c = a.rows().get(k);
            assertEquals(Verdict.PASS, c.verdict(), name);
            assertEquals(d.maxAbsError(), c.maxAbsError(), 1e-9, name + ": the same values, within rounding");
            assertTrue(c.evaluations() < d.evaluations(), name + ": " + c.evaluations() + " evaluations against "
                    + d.evaluations() + " dense");
        }
    }

    static Stream<Arguments> singleWrongEntries() {
        return Stream.of(
                Arguments.of("conv2d, dx one entry x1.1", CONV, CompressedJacobiansTest.oneElementOff("x", "0", 40,
                        61, 0.1)),
                Arguments.of("conv2d, dw one entry sign flipped", CONV, CompressedJacobiansTest.oneElementOff("w", "0",
                        77, 50, -2)),
                Arguments.of("strided conv2d, dx one entry x1.1", STRIDED_CONV, CompressedJacobiansTest
                        .oneElementOff("x", "0", 20, 30, 0.1)),
                Arguments.of("softmax, one entry x1.1", SOFTMAX, CompressedJacobiansTest.oneElementOff("x", "0", 45,
                        47, 0.1)),
                Arguments.of("matmul, db one entry sign flipped", MATMUL, CompressedJacobiansTest.oneElementOff("b",
                        "0", 13, 7, -2)),
                Arguments.of("tanh, one entry x1.1", TANH, CompressedJacobiansTest.oneElementOff("x", "0", 99, 99,
                        0.1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("singleWrongEntries")
    void aWrongEntryFailsOnBothSidesCompressedAsInDenseMode(String name, String yaml, Corruption corruption)
            throws Exception {
        TwoSidedCompression.Attempt a = attempt(yaml, corruption);
        assertNotNull(a.rows(), name + ": settled on the two-sided path, " + a.declined() + " "
                + (a.screen() == null ? "" : a.screen().first()));
        List<GradientResult> dense = jacobianRows(check(yaml + "compress: false\n", corruption));
        for (int k = 0; k < dense.size(); k++) {
            GradientResult d = dense.get(k);
            GradientResult c = a.rows().get(k);
            String block = name + ", d" + d.output() + "/d" + d.input();
            assertSameAsDense(d, c, block);
        }
    }

    static Stream<Arguments> valuesOutsideThePattern() {
        return Stream.of(
                Arguments.of("conv2d, a nonzero outside the pattern", CONV, CompressedJacobiansTest.addOutside("x",
                        "0", 0, 140, 1e-4)),
                Arguments.of("tanh, a nonzero outside the pattern", TANH, CompressedJacobiansTest.addOutside("x", "0",
                        2, 9, 5e-6)),
                Arguments.of("softmax, a nonzero in another row of the batch", SOFTMAX, CompressedJacobiansTest
                        .addOutside("x", "0", 3, 70, 1e-4)),
                Arguments.of("tanh, two gradient entries swapped", TANH, CompressedJacobiansTest.swapGradient("x", 5,
                        70)),
                Arguments.of("tanh, gradient transposed", TANH, CompressedJacobiansTest.transposed("x", 12)),
                Arguments.of("matmul, the backward scaled by 1 + 1e-3", MATMUL, (Corruption) f ->
                        Functions.withBackward(f, Functions.scaledBy(1 + 1e-3))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valuesOutsideThePattern")
    void whatSingleEntriesCannotSettleGoesToTheOneSidedPathAndFailsAsInDenseMode(String name, String yaml,
                                                                                Corruption corruption)
            throws Exception {
        TwoSidedCompression.Attempt a = attempt(yaml, corruption);
        assertTrue(a.rows() == null || a.rows().stream().anyMatch(r -> !r.verdict().passed()), name);
        if (a.rows() == null) {
            assertNull(a.declined(), name + ": tried, and sent back by the screen");
            assertNotNull(a.screen().first(), name);
        }
        CheckResult dense = check(yaml + "compress: false\n", corruption);
        CheckResult full = check(yaml, corruption);
        assertEquals(Status.FAILED, dense.status(), name);
        assertEquals(dense.status(), full.status(), name);
    }

    static Stream<Arguments> valuesOutsideThePatternLocated() {
        return Stream.concat(valuesOutsideThePattern(), Stream.of(
                Arguments.of("softmax, two rows of one group swapped", SOFTMAX, CompressedJacobiansTest
                        .swapCotangent("0", 3, 64)),
                Arguments.of("conv2d, two entries of one column group swapped", CONV, CompressedJacobiansTest
                        .swapGradient("x", 0, 3)),
                Arguments.of("conv2d, a weight's entries swapped", CONV, CompressedJacobiansTest.swapGradient("w", 5,
                        90)),
                Arguments.of("matmul, a nonzero outside the pattern", MATMUL, CompressedJacobiansTest.addOutside("b",
                        "0", 1, 2, 1e-4))));
    }

    /**
     * What dense blocks would settle, settled where they do not fit: the lines behind each evaluation the pattern does
     * not explain are located, taken alone, and every entry judged, so the verdict, the worst entry with its values and
     * score, and the mismatch count are the dense check's. A backward wrong nearly everywhere exhausts the search: then
     * its located entries, judged alone as densely, still fail it, with a lower bound on the count.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("valuesOutsideThePatternLocated")
    void whatSingleEntriesCannotSettleIsLocatedAndFailsAsInDenseMode(String name, String yaml, Corruption corruption)
            throws Exception {
        TwoSidedCompression.Attempt a = attempt(yaml, corruption, true);
        assertNotNull(a.rows(), name + ": settled, " + (a.screen() == null ? a.declined() : a.screen().first()));
        List<GradientResult> dense = jacobianRows(check(yaml + "compress: false\n", corruption));
        assertTrue(dense.stream().anyMatch(d -> !d.verdict().passed()), name + ": dense mode catches it");
        for (int k = 0; k < dense.size(); k++) {
            GradientResult d = dense.get(k);
            GradientResult c = a.rows().get(k);
            String block = name + ", d" + d.output() + "/d" + d.input() + ": " + c.note();
            boolean bound = c.note() != null && c.note().startsWith("at least");
            if (bound) {
                assertTrue(c.mismatches().count() <= d.mismatches().count(), block);
                assertEquals(d.verdict() != Verdict.PASS && c.mismatches().count() > 0, !c.verdict().passed(), block);
                if (!c.verdict().passed()) {
                    assertEntryIsDense(d, c, block);
                }
                continue;
            }
            assertSameAsDense(d, c, block);
        }
        assertTrue(a.rows().stream().anyMatch(r -> !r.verdict().passed()), name);
    }

    /** A row judged as dense mode judges it: the same verdict and, where it fails, the same worst entry and count. */
    private static void assertSameAsDense(GradientResult d, GradientResult c, String block) {
        assertEquals(d.verdict(), c.verdict(), block);
        if (d.verdict() != Verdict.PASS) {
            assertArrayEquals(d.worst().outputIndex(), c.worst().outputIndex(), block);
            assertArrayEquals(d.worst().inputIndex(), c.worst().inputIndex(), block);
            assertEquals(d.worst().analytic(), c.worst().analytic(), 0, block);
            assertEquals(d.worst().numerical(), c.worst().numerical(), 0, block);
            assertEquals(d.maxScore(), c.maxScore(), 0, block);
            assertEquals(d.mismatches().count(), c.mismatches().count(), block);
        }
    }

    /** The worst entry a lower-bound row names is one of the dense check's failing entries, with its values. */
    private static void assertEntryIsDense(GradientResult d, GradientResult c, String block) {
        boolean listed = d.mismatches().worst().stream().anyMatch(w -> java.util.Arrays.equals(w.outputIndex(),
                c.worst().outputIndex()) && java.util.Arrays.equals(w.inputIndex(), c.worst().inputIndex()));
        assertTrue(listed || c.maxScore() <= d.maxScore(), block + ": a failing entry, no worse than the dense worst");
        assertTrue(c.maxScore() > 1, block);
    }

    /** 65536 x 65536 as dense blocks (64 GiB); every entry judged in a few hundred evaluations. */
    private static final String BIG_TANH = """
            op: tanh
            inputs:
              x: {shape: [256, 256], init: {uniform: [-2, 2]}}
            """;

    /**
     * 3136 output rows (row 1500: output channel 7), 4096 + 2304 input columns (w[1, 1, 3, 7] is flat 1079); its
     * rows in 196 groups, the least, where first fit alone took 272 (ConvolutionPlanTest).
     */
    private static final String BIG_CONV = """
            op: conv2d
            attrs: {kH: 3, kW: 3, sH: 1, sW: 1, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 0, isNCHW: 0}
            inputs:
              x: {shape: [1, 16, 16, 16]}
              w: {shape: [3, 3, 16, 16]}
            """;

    /**
     * Where dense blocks do not fit (tanh: 64 GiB) the two-sided path's own finding is the report; where they do
     * (this convolution: 321 MB) a failing target is judged densely, kinks and ties probed; either way the wrong
     * entry is named and counted alone.
     */
    static Stream<Arguments> wrongEntriesAtSize() {
        return Stream.of(
                Arguments.of("tanh 256x256, one entry x1.1", BIG_TANH, "x", 40_000, 40_000, 0.1),
                Arguments.of("tanh 256x256, one entry's sign flipped", BIG_TANH, "x", 123, 123, -2),
                Arguments.of("conv2d 16 channels, one weight's entry x1.1", BIG_CONV, "w", 1500, 1079, 0.1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongEntriesAtSize")
    void atLayerSizesASingleWrongEntryIsNamedAndCounted(String name, String yaml, String input, int row, int col,
                                                        double rel) {
        CheckResult r = check(yaml, CompressedJacobiansTest.oneElementOff(input, "0", row, col, rel));
        assertEquals(Status.FAILED, r.status(), name + "\n" + r);
        GradientResult block = jacobianRows(r).stream().filter(g -> g.input().equals(input)).findFirst().orElseThrow();
        assertEquals(Verdict.MISMATCH, block.verdict(), name);
        assertEquals(1, block.mismatches().count(), name);
        OpSpec spec = Specs.parse(yaml);
        assertArrayEquals(Flat.unravel(col, spec.input(input).shape()), block.worst().inputIndex(), name);
    }

    /**
     * Values outside the true pattern where dense blocks do not fit (tanh: 64 GiB; the convolution under a 200 MB
     * budget, against its 321 MB of dense blocks): located, named and counted as the dense check does.
     */
    static Stream<Arguments> outsideThePatternAtSize() {
        return Stream.of(
                Arguments.of("tanh 256x256, a nonzero outside the pattern", BIG_TANH, CompressedJacobiansTest
                        .addOutside("x", "0", 2, 40_000, 1e-4), 1, new long[] {0, 2}, new long[] {156, 64}),
                Arguments.of("tanh 256x256, two gradient entries swapped", BIG_TANH, CompressedJacobiansTest
                        .swapGradient("x", 5, 40_000), 4, null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outsideThePatternAtSize")
    void atLayerSizesAValueOutsideThePatternIsLocatedNamedAndCounted(String name, String yaml, Corruption corruption,
                                                                     int mismatches, long[] row, long[] col) {
        CheckResult r = check(yaml, corruption);
        assertEquals(Status.FAILED, r.status(), name + "\n" + r);
        GradientResult block = jacobianRows(r).get(0);
        assertEquals(Verdict.MISMATCH, block.verdict(), name);
        assertEquals(mismatches, block.mismatches().count(), name);
        assertNull(block.note(), name + ": every entry judged");
        if (row != null) {
            assertArrayEquals(row, block.worst().outputIndex(), name);
            assertArrayEquals(col, block.worst().inputIndex(), name);
        }
    }

    @Test
    @Tag("slow") // a dense check of 321 MB, or 4096 evaluations at 65,536 elements
    void atLayerSizesEntriesSwappedAcrossAConvolutionFailAsInDenseModeWhereDenseBlocksDoNotFit() {
        Corruption swapped = CompressedJacobiansTest.swapGradient("x", 17, 1000);
        List<GradientResult> dense = jacobianRows(check(BIG_CONV + "compress: false\n", swapped));
        CheckResult r = new GradientChecker((spec, inputs) -> swapped.apply(BUILDER.build(spec, inputs)), "cpu",
                new MemoryBudget(200L << 20)).check(Specs.parse(BIG_CONV));
        assertEquals(Status.FAILED, r.status(), r.toString());
        List<GradientResult> located = jacobianRows(r);
        for (int k = 0; k < dense.size(); k++) {
            GradientResult d = dense.get(k);
            GradientResult c = located.get(k);
            assertEquals(d.verdict(), c.verdict(), d.input());
            assertEquals(d.mismatches().count(), c.mismatches().count(), d.input());
            if (d.verdict() != Verdict.PASS) {
                assertArrayEquals(d.worst().outputIndex(), c.worst().outputIndex(), d.input());
                assertArrayEquals(d.worst().inputIndex(), c.worst().inputIndex(), d.input());
                assertEquals(d.worst().numerical(), c.worst().numerical(), 0, d.input());
            }
        }
    }

    /**
     * A gradient transposed everywhere: more culprits than the search may locate, so the entries it located are
     * judged alone; each failing one is a true mismatch (tanh's Jacobian is diagonal: off it the numerical side is
     * zero, on it the transposed backward is), and the count is a lower bound.
     */
    @Test
    @Tag("slow") // a dense check of 321 MB, or 4096 evaluations at 65,536 elements
    void atLayerSizesAGradientWrongEverywhereFailsOnTheEntriesLocated() {
        CheckResult r = check(BIG_TANH, CompressedJacobiansTest.transposed("x", 256));
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult block = jacobianRows(r).get(0);
        assertEquals(Verdict.MISMATCH, block.verdict());
        assertTrue(block.note().startsWith("at least " + block.mismatches().count()), block.note());
        assertTrue(block.mismatches().count() > 0);
        assertTrue((block.worst().analytic() == 0) != (block.worst().numerical() == 0), block.worst().toString());
        assertNotNull(block.sampling(), "the located lines, as a sample");
    }

    /** Since 2026-11-28 narrowed to the entry rather than rechecked in full (check/fast EntryNarrowing). */
    @Test
    void aFastCheckThatFailsAtLayerSizeNamesTheEntry() {
        CheckResult r = check(BIG_TANH + "mode: fast\n", CompressedJacobiansTest.oneElementOff("x", "0", 30_000,
                30_000, 0.1));
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult fast = r.rowsOf(CheckKind.FAST).get(0);
        assertEquals(Verdict.MISMATCH, fast.verdict());
        assertTrue(fast.note().startsWith("fast mode mismatch"), fast.note());
        assertEquals(1, fast.mismatches().count());
        assertArrayEquals(new long[] {117, 48}, fast.worst().inputIndex(), "x[30000] of a 256 x 256 input");
    }

    @Test
    void atLayerSizesARightBackwardPassesInAFewHundredEvaluations() {
        for (String yaml : List.of(BIG_TANH, BIG_CONV)) {
            CheckResult r = check(yaml, f -> f);
            assertEquals(Status.PASSED, r.status(), r.toString());
            for (GradientResult g : jacobianRows(r)) {
                assertTrue(g.evaluations() < 1500, g.input() + ": " + g.evaluations());
            }
        }
    }

    @Test
    void theGuessedWindowsOfAStridedConvolutionHoldEveryNonzero() throws Exception {
        OpSpec spec = Specs.parse(STRIDED_CONV);
        Settings s = Settings.of(spec);
        DrawnInputs x = DrawnInputs.draw(spec, s.seed());
        try (Differentiable f = BUILDER.build(spec, x.test())) {
            Map<String, INDArray> atX = f.forward(x.test());
            long[] outShape = atX.get("0").shape();
            AnalyticJacobian side = new AnalyticJacobian(f, x.test(), Map.of("0", atX.get("0").like().assign(0)),
                    List.of("0"), spec.check());
            WindowPattern p = PatternProbe.guess(side, "0", outShape, spec.check(), Map.of("x",
                    x.test().get("x").shape(), "w", x.test().get("w").shape()));
            assertNotNull(p);
            for (int row = 0; row < p.rows(); row++) {
                Map<String, double[]> values = side.evaluate("0", new int[] {row}, new double[] {1});
                for (WindowPattern.Input in : p.inputs()) {
                    int[][] window = p.window(row, in);
                    double[] v = values.get(in.name());
                    for (int c = 0; c < v.length; c++) {
                        assertTrue(v[c] == 0 || WindowPattern.contains(window, in.shape(), c),
                                "row " + row + ", " + in.name() + "[" + c + "] outside its window");
                        int col = c;
                        assertTrue(!WindowPattern.contains(window, in.shape(), c) || WindowPattern.contains(
                                p.column(in, col), outShape, row), "the column's rows hold the row");
                    }
                }
            }
        }
    }

    @Test
    void rowGroupsAndColumnGroupsShareNoElementOfAWindow() {
        // matmul 8x10 . 10x6: a row (i, j) holds a[i, ·] and b[·, j]
        WindowPattern p = new WindowPattern(new long[] {8, 6}, List.of(
                new WindowPattern.Input("a", new long[] {8, 10}, new WindowPattern.Dim[] {
                    new WindowPattern.Dim(0, 1, 0, 1), WindowPattern.Dim.whole()}),
                new WindowPattern.Input("b", new long[] {10, 6}, new WindowPattern.Dim[] {
                    WindowPattern.Dim.whole(), new WindowPattern.Dim(1, 1, 0, 1)})));
        int[][] rows = p.rowGroups();
        assertTrue(rows.length >= 8 && rows.length <= 13, rows.length + " groups of rows, at least 8");
        for (int[] g : rows) {
            for (WindowPattern.Input in : p.inputs()) {
                boolean[] seen = new boolean[Math.toIntExact(Flat.size(in.shape()))];
                for (int row : g) {
                    WindowPattern.forEach(p.window(row, in), in.shape(), c -> {
                        assertTrue(!seen[c], "two rows of a group share " + in.name() + "[" + c + "]");
                        seen[c] = true;
                    });
                }
            }
        }
        for (WindowPattern.Input in : p.inputs()) {
            int[][] cols = p.columnGroups(in);
            assertEquals(10, cols.length, in.name() + ": one group per k");
            for (int[] g : cols) {
                boolean[] seen = new boolean[48];
                for (int c : g) {
                    WindowPattern.forEach(p.column(in, c), p.outShape(), r -> {
                        assertTrue(!seen[r], "two columns of a group share row " + r);
                        seen[r] = true;
                    });
                }
            }
        }
    }

    /** The two-sided path forced on a spec, whatever its size, leaving what it cannot settle to other paths. */
    static TwoSidedCompression.Attempt attempt(String yaml, Corruption corruption) throws Exception {
        return attempt(yaml, corruption, false);
    }

    /**
     * The two-sided path forced on a spec, whatever its size.
     *
     * @param locate looking for what single entries cannot settle ({@link Culprits}), as where dense blocks do not fit
     */
    static TwoSidedCompression.Attempt attempt(String yaml, Corruption corruption, boolean locate) throws Exception {
        return attempt(yaml, (spec, inputs) -> corruption.apply(BUILDER.build(spec, inputs)), locate);
    }

    /** The two-sided path forced on the function {@code build} makes for a spec, whatever its size. */
    static TwoSidedCompression.Attempt attempt(String yaml, FunctionFactory build, boolean locate) throws Exception {
        return attempt(yaml, build, TwoSidedCompression.Gate.ALWAYS.locating(locate));
    }

    /** The two-sided path forced on the function {@code build} makes for a spec, through this gate. */
    static TwoSidedCompression.Attempt attempt(String yaml, FunctionFactory build, TwoSidedCompression.Gate gate)
            throws Exception {
        return attempt(yaml, build, gate, MemoryBudget.UNLIMITED);
    }

    /** The same, under this budget. */
    static TwoSidedCompression.Attempt attempt(String yaml, FunctionFactory build, TwoSidedCompression.Gate gate,
                                               MemoryBudget budget) throws Exception {
        OpSpec spec = Specs.parse(yaml);
        Settings s = Settings.of(spec);
        DrawnInputs x = DrawnInputs.draw(spec, s.seed());
        try (Differentiable f = build.build(spec, x.test());
             ParallelLines threads = new ParallelLines(s.threads())) {
            Map<String, INDArray> atX = f.forward(x.test());
            List<String> outputs = OutputSelection.select(spec, f.outputNames(), atX);
            CheckTarget t = new CheckTarget(1, f, f, x.test(), x.reference(), spec.check(), outputs, atX, atX,
                    f.affineInputs());
            return TwoSidedCompression.attempt(t, s, spec.check(), threads, budget, gate);
        }
    }

    private static CheckResult check(String yaml, Corruption corruption) {
        return CompressedJacobiansTest.check(yaml, corruption);
    }

    private static List<GradientResult> jacobianRows(CheckResult r) {
        return CompressedJacobiansTest.jacobianRows(r);
    }
}
