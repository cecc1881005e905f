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
import org.junit.jupiter.api.Test;
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
        }, "cpu").check(Specs.parse(TANH));
        assertEquals(Status.PASSED, r.status());
        assertNotNull(r.calls());
        assertEquals(forward.get(), r.calls().forward());
        assertEquals(backward.get(), r.calls().backward());
        assertTrue(r.calls().backward() >= 10, "the sanity rows alone make ten: " + r.calls());
        assertTrue(r.calls().forward() >= 3, "the forward at x, elsewhere and at x again: " + r.calls());
    }
}
