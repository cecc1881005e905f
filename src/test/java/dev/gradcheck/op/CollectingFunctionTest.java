package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The guard runs the collector where a function's calls leave native garbage beyond its limit, and not where they
 * leave none: ND4J's arrays are freed only when the collector finds their small Java objects.
 */
class CollectingFunctionTest {

    private static final long MIB = 1L << 20;

    /** Each forward makes (and touches) an 8 MiB array; {@code keep} holds them alive, else they are garbage. */
    private static final class Allocating implements Differentiable {
        private final List<INDArray> kept;
        private final long doubles;

        Allocating(List<INDArray> kept, long doubles) {
            this.kept = kept;
            this.doubles = doubles;
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
            INDArray made = Nd4j.create(DataType.DOUBLE, doubles).assign(1.0);
            if (kept != null) {
                kept.add(made);
            }
            return Map.of("y", inputs.get("x"));
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                         List<String> wrt) {
            return forward(inputs);
        }
    }

    private static long calls(Differentiable f, int n) {
        Map<String, INDArray> x = Map.of("x", Nd4j.scalar(1.0));
        for (int i = 0; i < n; i++) {
            f.forward(x);
        }
        return n;
    }

    @Test
    void garbageBeyondTheLimitIsCollected() {
        CollectingFunction.Guard guard = new CollectingFunction.Guard(64 * MIB, 0);
        // 100 x 8 MiB of garbage: without a collection the heap (a few small objects per call) would not ask for one
        calls(new CollectingFunction(new Allocating(null, MIB), guard), 100);
        assertTrue(guard.collections() >= 1, "collections: " + guard.collections());
    }

    @Test
    void callsThatLeaveNoGarbageAreNotCollected() {
        CollectingFunction.Guard guard = new CollectingFunction.Guard(64 * MIB, 0);
        calls(new CollectingFunction(new Allocating(null, 16), guard), 200);
        assertEquals(0, guard.collections());
    }

    @Test
    void whatTheCheckHoldsIsNotCollectedAgainAndAgain() {
        List<INDArray> alive = new ArrayList<>();
        CollectingFunction.Guard guard = new CollectingFunction.Guard(64 * MIB, 0);
        // 24 x 8 MiB held: at most one collection per 64 MiB the check came to hold, not one per call after the first
        calls(new CollectingFunction(new Allocating(alive, MIB), guard), 24);
        assertTrue(guard.collections() <= 3, "collections: " + guard.collections());
        alive.forEach(INDArray::close);
    }
}
