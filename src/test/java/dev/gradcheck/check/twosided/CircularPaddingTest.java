package dev.gradcheck.check.twosided;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gradcheck.check.Functions;
import dev.gradcheck.check.GradientChecker;
import dev.gradcheck.check.Specs;
import dev.gradcheck.check.colouring.WindowPattern;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.INDArrayIndex;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * A convolution over circularly padded input (x padded by one on H and W with its own opposite edge, then a 3x3
 * convolution without padding), as a test function around ND4J's conv2d. Its backward must fold the padding's
 * gradient back onto the opposite edges; one that drops it (as if the padding were zeros) is wrong at every edge,
 * one that folds the top padding row one row off (onto x's last row but one) at the top edge. Where both sides are
 * compressed the windows wrap round H and W (colouring.Wraps tells so from the rows at the output's edges): the
 * right one passes and the wrong ones fail with dense mode's verdicts and counts, on [1, 2, 8, 8] and at layer size
 * [1, 16, 32, 32], where the right one was refused before 2026-11-28 (its edge rows' values at the opposite edge
 * lay outside any window the probe guessed).
 */
class CircularPaddingTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());

    private static final String CONV = """
            op: conv2d
            mode: full
            attrs: {kH: 3, kW: 3, sH: 1, sW: 1, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 0, isNCHW: 0}
            inputs:
              x: {shape: [1, %d, %d, %d], init: {uniform: [-1, 1]}}
              w: {shape: [3, 3, %d, %d], init: {uniform: [-1, 1]}}
            """;

    /** How the backward folds the padding's gradient back onto x. */
    enum Fold {
        /** onto the opposite edges, as the forward read them */
        ROUND,
        /** not at all, as if the padding were zeros */
        DROPPED,
        /** the top padding row onto x's last row but one, where it should go onto the last */
        ONE_OFF
    }

    @Test
    void windowsRoundTheirDimensionHoldTheirColumnsAndColourWithoutSharing() {
        // a 3x3 circular convolution's windows (4 per round of 32 would colour them; 7 is prime: 7 groups), a
        // reversed circular window and one of stride 2 round a dimension twice its output's
        BackwardWindowsTest.holdTogether(new WindowPattern(new long[] {2, 7, 6}, List.of(
                new WindowPattern.Input("x", new long[] {3, 7, 6}, new WindowPattern.Dim[] {
                    WindowPattern.Dim.whole(), new WindowPattern.Dim(1, 1, -1, 3).wrapping(7),
                    new WindowPattern.Dim(2, 1, -1, 3).wrapping(6)}))));
        BackwardWindowsTest.holdTogether(new WindowPattern(new long[] {9, 5}, List.of(
                new WindowPattern.Input("x", new long[] {9}, new WindowPattern.Dim[] {
                    new WindowPattern.Dim(0, -1, 9, 2).wrapping(9)}),
                new WindowPattern.Input("w", new long[] {10}, new WindowPattern.Dim[] {
                    new WindowPattern.Dim(1, 2, -2, 3).wrapping(10)}))));
    }

    @Test
    void windowsOfThreeRoundThirtyTwoColourInFours() {
        WindowPattern p = new WindowPattern(new long[] {32}, List.of(new WindowPattern.Input("x", new long[] {32},
                new WindowPattern.Dim[] {new WindowPattern.Dim(0, 1, -1, 3).wrapping(32)})));
        BackwardWindowsTest.holdTogether(p);
        assertEquals(4, p.rowGroups().length, "rows 4 apart share nothing round 32");
        assertEquals(4, p.columnGroups(p.inputs().get(0)).length);
        assertArrayEquals(new int[] {-1, 1}, p.window(0, p.inputs().get(0))[0], "x[31], x[0], x[1]");
    }

    @Test
    void aWindowThatCannotStepRoundItsDimensionIsNoPattern() {
        WindowPattern.Dim[] dims = {new WindowPattern.Dim(0, 1, -1, 3).wrapping(8)};
        List<WindowPattern.Input> x = List.of(new WindowPattern.Input("x", new long[] {8}, dims));
        assertThrows(IllegalArgumentException.class, () -> new WindowPattern(new long[] {6}, x));
    }

    @Test
    void inDenseModeTheRightOnePassesAndOnesThatMissTheWrapFail() {
        CheckResult right = check(2, 6, Fold.ROUND, "compress: false\n");
        assertEquals(Status.PASSED, right.status(), right.message());
        for (Fold wrong : List.of(Fold.DROPPED, Fold.ONE_OFF)) {
            CheckResult r = check(2, 6, wrong, "compress: false\n");
            assertEquals(Status.FAILED, r.status(), wrong + ": " + r.message());
            assertEquals(Verdict.MISMATCH, row(r.gradients(), "x").verdict(), wrong.toString());
            assertEquals(Verdict.PASS, row(r.gradients(), "w").verdict(), "the weights' gradient is right");
        }
    }

    @Test
    void bothSidesCompressedGiveDenseModesVerdictsAndCounts() throws Exception {
        for (Fold fold : Fold.values()) {
            List<GradientResult> dense = check(2, 8, fold, "compress: false\n").gradients();
            String spec = CONV.formatted(2, 8, 8, 2, 2);
            TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(spec, (s, in) -> circular(2, 8, fold,
                    in), true);
            assertNotNull(a.rows(), fold + ": " + a.why());
            for (String input : List.of("x", "w")) {
                GradientResult d = row(dense, input);
                GradientResult c = row(a.rows(), input);
                assertEquals(d.verdict(), c.verdict(), fold + " " + input + ": " + c.note());
                assertEquals(d.mismatches().count(), c.mismatches().count(), fold + " " + input + ": " + c.note() + " / dense: " + d.note());
            }
            assertEquals(fold == Fold.ROUND ? Verdict.PASS : Verdict.MISMATCH, row(a.rows(), "x").verdict());
        }
    }

    @Tag("slow") // x [1, 16, 32, 32], w [3, 3, 16, 16]: dense blocks 4.6 GiB, three checks of ~2,000 evaluations
    @Test
    void atLayerSizeTheRightOnePassesAndOnesThatMissTheWrapFail() {
        CheckResult right = check(16, 32, Fold.ROUND, "");
        assertEquals(Status.PASSED, right.status(), right.message());
        assertEquals(Verdict.PASS, row(right.gradients(), "x").verdict());
        for (Fold wrong : List.of(Fold.DROPPED, Fold.ONE_OFF)) {
            CheckResult r = check(16, 32, wrong, "");
            assertEquals(Status.FAILED, r.status(), wrong + ": " + r.message());
            assertEquals(Verdict.MISMATCH, row(r.gradients(), "x").verdict(), row(r.gradients(), "x").note());
            System.out.println("circular conv [1,16,32,32] " + wrong + ": " + row(r.gradients(), "x").evaluations()
                    + " evaluations, " + row(r.gradients(), "x").note());
        }
        System.out.println("circular conv [1,16,32,32] right: " + row(right.gradients(), "x").evaluations()
                + " evaluations");
    }

    private static CheckResult check(int channels, int size, Fold fold, String more) {
        return new GradientChecker((spec, inputs) -> circular(channels, size, fold, inputs), "cpu",
                new MemoryBudget(1L << 30)).check(Specs.parse(CONV.formatted(channels, size, size, channels,
                channels) + more));
    }

    /** The circular convolution over these inputs: ND4J's conv2d built for the padded shape, inside. */
    private static Differentiable circular(int channels, int size, Fold fold, Map<String, INDArray> inputs)
            throws InvalidSpecException {
        String inner = CONV.formatted(channels, size + 2, size + 2, channels, channels);
        Map<String, INDArray> padded = new LinkedHashMap<>(inputs);
        padded.put("x", Circular.pad(inputs.get("x")));
        return new Circular(BUILDER.build(Specs.parse(inner), padded), fold);
    }

    private static GradientResult row(List<GradientResult> rows, String input) {
        return rows.stream().filter(g -> g.kind() == CheckKind.JACOBIAN && g.input().equals(input))
                .findFirst().orElseThrow();
    }

    /** conv2d over x padded circularly by one on H and W (NCHW), the inner conv built for the padded shape. */
    static final class Circular extends Functions.Delegate {
        private final Differentiable conv;
        private final Fold fold;

        Circular(Differentiable conv, Fold fold) {
            super(conv);
            this.conv = conv;
            this.fold = fold;
        }

        static INDArray pad(INDArray x) {
            long h = x.size(2);
            long w = x.size(3);
            INDArray across = Nd4j.concat(3, x.get(all(), all(), all(), at(w - 1)), x, x.get(all(), all(), all(),
                    at(0)));
            return Nd4j.concat(2, across.get(all(), all(), at(h - 1), all()), across,
                    across.get(all(), all(), at(0), all())).dup('c');
        }

        /** The padded input's gradient back on x: its inside, and (wrapping) each padded edge onto the opposite. */
        INDArray fold(INDArray g) {
            long h = g.size(2) - 2;
            long w = g.size(3) - 2;
            boolean wrap = fold != Fold.DROPPED;
            if (wrap) {
                for (long r : new long[] {0, h + 1}) { // each corner of the padding onto x's opposite corner
                    g.get(all(), all(), at(r == 0 ? h : 1), at(w)).addi(g.get(all(), all(), at(r), at(0)));
                    g.get(all(), all(), at(r == 0 ? h : 1), at(1)).addi(g.get(all(), all(), at(r), at(w + 1)));
                }
            }
            INDArray rows = g.get(all(), all(), all(), NDArrayIndex.interval(1, w + 1)).dup('c');
            if (wrap) {
                rows.get(all(), all(), at(1), all()).addi(rows.get(all(), all(), at(h + 1), all()));
                rows.get(all(), all(), at(fold == Fold.ONE_OFF ? h - 1 : h), all()).addi(rows.get(all(), all(),
                        at(0), all()));
            }
            INDArray d = rows.get(all(), all(), NDArrayIndex.interval(1, h + 1), all()).dup('c');
            if (wrap) {
                INDArray edges = g.get(all(), all(), NDArrayIndex.interval(1, h + 1), all());
                d.get(all(), all(), all(), at(0)).addi(edges.get(all(), all(), all(), at(w + 1)));
                d.get(all(), all(), all(), at(w - 1)).addi(edges.get(all(), all(), all(), at(0)));
            }
            return d;
        }

        private static INDArrayIndex all() {
            return NDArrayIndex.all();
        }

        private static INDArrayIndex at(long i) {
            return NDArrayIndex.interval(i, i + 1);
        }

        private Map<String, INDArray> padded(Map<String, INDArray> in) {
            Map<String, INDArray> p = new LinkedHashMap<>(in);
            p.put("x", pad(in.get("x")));
            return p;
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> in) {
            return conv.forward(padded(in));
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
            Map<String, INDArray> g = new LinkedHashMap<>(conv.vjp(padded(in), ct, wrt));
            if (g.containsKey("x")) {
                g.put("x", fold(g.get("x").dup('c')));
            }
            return g;
        }
    }
}
