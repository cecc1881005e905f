package dev.gradcheck.check.twosided;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.check.Functions;
import dev.gradcheck.check.GradientChecker;
import dev.gradcheck.check.Specs;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
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
 * gradient back onto the opposite edges; one that drops it (as if the padding were zeros) is wrong at every edge.
 * The wrong one fails in dense mode and at layer size; the right one passes in dense mode. At layer size the right
 * one is still refused (2026-11-28): the edge rows' dependencies on the opposite edge lie outside any window the
 * pattern probe can guess, and more than the search may locate (docs/checking.md, "Where it stops").
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

    @Test
    void inDenseModeTheRightOnePassesAndOneThatDropsTheWrapFails() {
        CheckResult right = check(2, 6, true, "compress: false\n");
        assertEquals(Status.PASSED, right.status(), right.message());
        CheckResult wrong = check(2, 6, false, "compress: false\n");
        assertEquals(Status.FAILED, wrong.status(), wrong.message());
        assertEquals(Verdict.MISMATCH, row(wrong, "x").verdict());
        assertEquals(Verdict.PASS, row(wrong, "w").verdict(), "the weights' gradient is right");
    }

    @Tag("slow") // x [1, 16, 32, 32], w [3, 3, 16, 16]: dense blocks 4.6 GiB, about 1,800 evaluations
    @Test
    void atLayerSizeOneThatDropsTheWrapFails() {
        CheckResult wrong = check(16, 32, false, "");
        assertEquals(Status.FAILED, wrong.status(), wrong.message());
        assertEquals(Verdict.MISMATCH, row(wrong, "x").verdict(), row(wrong, "x").note());
    }

    private static CheckResult check(int channels, int size, boolean wrap, String more) {
        String inner = CONV.formatted(channels, size + 2, size + 2, channels, channels);
        return new GradientChecker((spec, inputs) -> {
            Map<String, INDArray> padded = new LinkedHashMap<>(inputs);
            padded.put("x", Circular.pad(inputs.get("x")));
            return new Circular(BUILDER.build(Specs.parse(inner), padded), wrap);
        }, "cpu", new MemoryBudget(1L << 30)).check(Specs.parse(CONV.formatted(channels, size, size, channels,
                channels) + more));
    }

    private static GradientResult row(CheckResult r, String input) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN && g.input().equals(input))
                .findFirst().orElseThrow();
    }

    /** conv2d over x padded circularly by one on H and W (NCHW), the inner conv built for the padded shape. */
    static final class Circular extends Functions.Delegate {
        private final Differentiable conv;
        private final boolean wrapBackward;

        Circular(Differentiable conv, boolean wrapBackward) {
            super(conv);
            this.conv = conv;
            this.wrapBackward = wrapBackward;
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
            if (wrapBackward) {
                for (long r : new long[] {0, h + 1}) { // each corner of the padding onto x's opposite corner
                    g.get(all(), all(), at(r == 0 ? h : 1), at(w)).addi(g.get(all(), all(), at(r), at(0)));
                    g.get(all(), all(), at(r == 0 ? h : 1), at(1)).addi(g.get(all(), all(), at(r), at(w + 1)));
                }
            }
            INDArray rows = g.get(all(), all(), all(), NDArrayIndex.interval(1, w + 1)).dup('c');
            if (wrapBackward) {
                rows.get(all(), all(), at(1), all()).addi(rows.get(all(), all(), at(h + 1), all()));
                rows.get(all(), all(), at(h), all()).addi(rows.get(all(), all(), at(0), all()));
            }
            INDArray d = rows.get(all(), all(), NDArrayIndex.interval(1, h + 1), all()).dup('c');
            if (wrapBackward) {
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
