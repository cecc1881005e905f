package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A check reports how many forward evaluations and backward passes it made on the function it judged (issue 33:
 * a backward wrong from its N-th call on is invisible to a check that made fewer calls; the report says how many).
 * The counts are the function's own, as a wrapper at the factory sees them.
 */
class CallsCountedTest {

    private static final String TANH = """
            op: tanh
            inputs:
              x: {shape: [4, 5], init: {uniform: [-2, 2]}}
            """;

    @Test
    void theReportedCallsAreTheCallsTheFunctionSaw() {
        assertCallsCounted(TANH);
    }

    static Stream<Arguments> layerSizes() {
        return Stream.of(Arguments.of("tanh [256,256], full", """
                op: tanh
                mode: full
                inputs:
                  x: {shape: [256, 256], init: {uniform: [-2, 2]}}
                """), Arguments.of("softmax [64,1000], fast", """
                op: softmax
                mode: fast
                attrs: {dimension: 1}
                inputs:
                  x: {shape: [64, 1000], init: {uniform: [-2, 2]}}
                """), Arguments.of("conv2d x [1,16,32,32], fast", """
                op: conv2d
                mode: fast
                attrs: {kH: 3, kW: 3, sH: 1, sW: 1, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 0, isNCHW: 0}
                inputs:
                  x: {shape: [1, 16, 32, 32], init: {uniform: [-1, 1]}}
                  w: {shape: [3, 3, 16, 16], init: {uniform: [-1, 1]}}
                """));
    }

    /** At layer sizes too, both sides compressed (tanh) and projections (fast mode): every call counted. */
    @Tag("slow") // three layer-sized checks, about 20 s
    @ParameterizedTest(name = "{0}")
    @MethodSource("layerSizes")
    void atLayerSizesTheReportedCallsAreTheCallsTheFunctionSaw(String name, String yaml) {
        assertCallsCounted(yaml);
    }

    private static void assertCallsCounted(String yaml) {
        AtomicLong forward = new AtomicLong();
        AtomicLong backward = new AtomicLong();
        CheckResult r = new GradientChecker((spec, inputs) -> new Functions.Delegate(RealOps.BUILDER.build(spec,
                inputs)) {
            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> in) {
                forward.incrementAndGet();
                return super.forward(in);
            }

            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                backward.incrementAndGet();
                return super.vjp(in, ct, wrt);
            }
        }, "cpu").check(Specs.parse(yaml));
        assertEquals(Status.PASSED, r.status(), r.message());
        assertNotNull(r.calls());
        assertEquals(forward.get(), r.calls().forward());
        assertEquals(backward.get(), r.calls().backward());
        // zero-grad 1, determinism 3, linearity 3 of its own (VJP(v) and VJP(−2^10·v) are determinism's)
        assertTrue(r.calls().backward() >= 7, "the sanity rows alone make seven: " + r.calls());
        // at x again only where the mode's first call is a backward (OwedForward)
        assertTrue(r.calls().forward() >= 2, "the forward at x and elsewhere: " + r.calls());
    }
}
