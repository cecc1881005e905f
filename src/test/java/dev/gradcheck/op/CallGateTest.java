package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.MemoryBudget;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * What one call of a function takes is measured (its first call runs alone), calls that together would pass half the
 * budget run one at a time, and a call that took more than the whole budget stops the check, before any later call.
 */
class CallGateTest {

    private static final long MIB = 1L << 20;

    /**
     * A backward that makes (and touches) an array of {@code bytes} and keeps it until it returns; while in a call,
     * it waits until the other caller is in a call too, waits at the gate, or is done, so that two callers meet.
     */
    private static final class Meeting implements Differentiable {
        private final long bytes;
        private final AtomicInteger inCall;
        private final AtomicInteger most;
        private final AtomicInteger done;
        private final CallGate gate;
        private final AtomicInteger calls = new AtomicInteger();

        Meeting(long bytes, AtomicInteger inCall, AtomicInteger most, AtomicInteger done, CallGate gate) {
            this.bytes = bytes;
            this.inCall = inCall;
            this.most = most;
            this.done = done;
            this.gate = gate;
        }

        @Override
        public List<String> inputNames() {
            return List.of("x");
        }

        @Override
        public List<String> outputNames() {
            return List.of("y");
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
            return Map.of("y", inputs.get("x"));
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                         List<String> wrt) {
            calls.incrementAndGet();
            INDArray made = Nd4j.create(DataType.DOUBLE, bytes / Double.BYTES).assign(1.0);
            most.accumulateAndGet(inCall.incrementAndGet(), Math::max);
            while (gate != null && inCall.get() < 2 && gate.waiting() == 0 && done.get() == 0) {
                Thread.onSpinWait(); // the other caller's next step, not a time, ends the wait
            }
            most.accumulateAndGet(inCall.get(), Math::max);
            inCall.decrementAndGet();
            return Map.of("x", made.getScalar(0));
        }
    }

    private static Map<String, INDArray> backward(Differentiable f) {
        Map<String, INDArray> x = Map.of("x", Nd4j.scalar(1.0));
        return f.vjp(x, Map.of("y", Nd4j.scalar(1.0)), List.of("x"));
    }

    /** The largest number of calls that were in {@code f} at once, two threads making four backwards each. */
    private static int mostAtOnce(long bytes, long budget) throws Exception {
        CollectingFunction.Guard guard = new CollectingFunction.Guard(64 * MIB, 0, budget);
        AtomicInteger inCall = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Callable<Void> caller = () -> {
                CollectingFunction f = new CollectingFunction(new Meeting(bytes, inCall, most, done,
                        guard.calls()), guard);
                for (int k = 0; k < 4; k++) {
                    backward(f);
                }
                done.incrementAndGet();
                return null;
            };
            Future<Void> one = pool.submit(caller);
            Future<Void> other = pool.submit(caller);
            one.get();
            other.get();
        } finally {
            pool.shutdown();
        }
        assertTrue(guard.calls().need(CallGate.Kind.BACKWARD) >= bytes / 2, "measured: "
                + guard.calls().need(CallGate.Kind.BACKWARD));
        return most.get();
    }

    @Test
    void callsTooLargeForHalfTheBudgetTogetherRunOneAtATime() throws Exception {
        // 96 MiB each: two make 192 MiB, over half of 256 MiB
        assertEquals(1, mostAtOnce(96 * MIB, 256 * MIB));
    }

    @Test
    void smallCallsRunSideBySide() throws Exception {
        assertEquals(2, mostAtOnce(MIB, 256 * MIB));
    }

    @Test
    void aCallOverTheWholeBudgetStopsTheCheckBeforeTheNextCall() {
        CollectingFunction.Guard guard = new CollectingFunction.Guard(64 * MIB, 0, 64 * MIB);
        Meeting inner = new Meeting(160 * MIB, new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), null);
        CollectingFunction f = new CollectingFunction(inner, guard);
        CallOverBudget first = assertThrows(CallOverBudget.class, () -> backward(f));
        assertEquals("backward", first.kind());
        assertTrue(first.needed() >= 128 * MIB, "measured " + first.needed());
        assertThrows(CallOverBudget.class, () -> f.forward(Map.of("x", Nd4j.scalar(1.0))));
        assertThrows(CallOverBudget.class, () -> backward(f));
        assertEquals(1, inner.calls.get(), "no call after the one over the budget");
    }

    @Test
    void theSameCallUnderABudgetThatHoldsItRuns() {
        CollectingFunction.Guard guard = new CollectingFunction.Guard(64 * MIB, 0, 1024 * MIB);
        CollectingFunction f = new CollectingFunction(new Meeting(160 * MIB, new AtomicInteger(), new AtomicInteger(),
                new AtomicInteger(), null), guard);
        backward(f);
        backward(f);
        assertTrue(guard.calls().need(CallGate.Kind.BACKWARD) >= 128 * MIB);
    }

    @Test
    void aLayerWhoseOneBackwardPassesTheBudgetIsRefusedWithTheFigureThatWouldFit() {
        // LocallyConnected2D's backward writes a full-size input gradient per output position: 196 of 400 KB here,
        // and their running sums, over 150 MB in one call, while its inputs and fast mode's arrays fit in 64 MiB
        CheckResult r = LayerChecks.check("layer.yaml", """
                name: lc2d-one-call-over
                layer: {type: LocallyConnected2D, nOut: 16, kernel: [2, 2], stride: [2, 2], activation: tanh}
                inputs:
                  x: {shape: [4, 16, 28, 28]}
                mode: fast
                """, new MemoryBudget(64 * MIB));
        assertEquals(Status.INVALID, r.status(), r.message());
        assertTrue(r.message().contains("refused: one backward call of LocallyConnected2D"), r.message());
        assertTrue(r.message().matches("(?s).*over the memory limit of 64\\.0 MiB.*--max-memory \\d+(\\.\\d)?m would"
                + " let its calls run one at a time.*"), r.message());
    }
}
