package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Built functions are lent to the next check of the same build, and only when nothing went wrong with them. */
class FunctionCacheTest {

    /** A stand-in function that counts how often it is closed and throws when told to. */
    private static final class Probe implements Differentiable {
        boolean throwOnForward;
        int closed;

        @Override
        public List<String> inputNames() {
            return List.of("x", "axis");
        }

        @Override
        public List<String> outputNames() {
            return List.of("0");
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
            if (throwOnForward) {
                throw new IllegalStateException("native error");
            }
            return Map.of("0", inputs.get("x").dup());
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                         List<String> wrt) {
            return Map.of("x", cotangents.get("0").dup());
        }

        @Override
        public Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
            return this;
        }

        @Override
        public void close() {
            closed++;
        }
    }

    private final List<Probe> built = new ArrayList<>();
    private final FunctionCache cache = new FunctionCache((spec, inputs) -> {
        Probe p = new Probe();
        built.add(p);
        return p;
    }, 2);

    private static OpSpec spec(String attrs) throws InvalidSpecException {
        return new SpecLoader().loadText("t.yaml", "t", """
                op: cumsum
                attrs: %s
                inputs:
                  x: {shape: [3, 4]}
                  axis: {shape: [], dtype: int32, init: {values: 1}}
                """.formatted(attrs)).get(0).specOrThrow();
    }

    private static Map<String, INDArray> inputs(int axis) {
        return Map.of("x", Nd4j.rand(3, 4), "axis", Nd4j.scalar(axis));
    }

    @Test
    void aRerunOfTheSameBuildBorrowsTheFunctionBuiltBefore() throws Exception {
        OpSpec spec = spec("{exclusive: 0}");
        try (Differentiable f = cache.build(spec, inputs(1))) {
            f.forward(inputs(1));
        }
        try (Differentiable f = cache.build(spec, inputs(1))) { // other x values, same build
            f.forward(inputs(1));
        }
        assertEquals(1, built.size(), "built once, lent twice");
        assertEquals(0, built.get(0).closed, "kept, not closed");
    }

    @Test
    void aFunctionLentAgainBringsWhatItsCallsWereMeasuredToTake() throws Exception {
        OpSpec spec = spec("{exclusive: 0}");
        CallSizes first;
        try (Differentiable f = cache.build(spec, inputs(1))) {
            first = f.callSizes().orElseThrow();
            first.measured(CallGate.Kind.BACKWARD, 12345, System.nanoTime());
        }
        try (Differentiable f = cache.build(spec, inputs(1)); Differentiable other = cache.build(spec, inputs(1))) {
            assertTrue(f.callSizes().orElseThrow() == first, "kept with the function");
            assertEquals(12345, f.callSizes().orElseThrow().need(CallGate.Kind.BACKWARD));
            assertEquals(CallGate.UNKNOWN, other.callSizes().orElseThrow().need(CallGate.Kind.BACKWARD),
                    "a new build's calls are measured afresh");
        }
    }

    @Test
    void copiesForOtherThreadsAreLentToo() throws Exception {
        OpSpec spec = spec("{exclusive: 0}");
        try (Differentiable a = cache.build(spec, inputs(1)); Differentiable b = cache.build(spec, inputs(1))) {
            assertEquals(2, built.size());
        }
        try (Differentiable f = cache.build(spec, inputs(1)); Differentiable copy = f.copy()) {
            assertTrue(f != copy);
            assertEquals(2, built.size(), "the copy is a kept function, not a new build");
        }
        assertEquals(0, built.get(0).closed + built.get(1).closed, "both kept again");
    }

    @Test
    void aLentFunctionSaysHowManyCopiesAreKeptReady() throws Exception {
        OpSpec spec = spec("{exclusive: 0}");
        try (Differentiable f = cache.build(spec, inputs(1))) {
            assertEquals(0, f.readyCopies(), "nothing kept yet: a copy would be built");
        }
        try (Differentiable a = cache.build(spec, inputs(1)); Differentiable b = cache.build(spec, inputs(1))) {
            assertEquals(0, a.readyCopies(), "the one kept build is lent to a, b is new");
        }
        try (Differentiable f = cache.build(spec, inputs(1))) {
            assertEquals(1, f.readyCopies(), "two kept, one lent");
            try (Differentiable copy = f.copy()) {
                assertEquals(0, f.readyCopies(), "the kept one went to the copy");
            }
            assertEquals(0, cache.build(spec("{exclusive: 1}"), inputs(1)).readyCopies(), "another build");
        }
    }

    @Test
    void twoChecksAtOnceGetTwoFunctions() throws Exception {
        OpSpec spec = spec("{exclusive: 0}");
        try (Differentiable a = cache.build(spec, inputs(1)); Differentiable b = cache.build(spec, inputs(1))) {
            assertTrue(a != b);
        }
        assertEquals(2, built.size());
    }

    @Test
    void anotherAttributeOrConstantValueIsAnotherBuild() throws Exception {
        cache.build(spec("{exclusive: 0}"), inputs(1)).close();
        cache.build(spec("{exclusive: 1}"), inputs(1)).close();
        cache.build(spec("{exclusive: 0}"), inputs(0)).close(); // the integer axis configures the op
        assertEquals(3, built.size());
    }

    @Test
    void aFunctionWhoseCallThrewIsClosedNotLent() throws Exception {
        OpSpec spec = spec("{exclusive: 0}");
        Differentiable f = cache.build(spec, inputs(1));
        built.get(0).throwOnForward = true;
        assertThrows(IllegalStateException.class, () -> f.forward(inputs(1)));
        f.close();
        assertEquals(1, built.get(0).closed);
        cache.build(spec, inputs(1)).close();
        assertEquals(2, built.size(), "built again");
    }

    @Test
    void aBackwardTakesTheFunctionOverAndClosesIt() throws Exception {
        OpSpec spec = spec("{exclusive: 0}");
        Differentiable f = cache.build(spec, inputs(1));
        Differentiable backward = f.backwardFunction(List.of("x"), List.of("0"));
        f.close(); // closing the taken-over function does nothing; the backward owns it
        backward.close();
        assertEquals(1, built.get(0).closed);
        cache.build(spec, inputs(1)).close();
        assertEquals(2, built.size(), "not lent again");
    }

    @Test
    void aBackwardOfAFunctionUsedBeforeIsBuiltFromAFreshOne() throws Exception {
        OpSpec spec = spec("{exclusive: 0}");
        cache.build(spec, inputs(1)).close();
        Differentiable f = cache.build(spec, inputs(1)); // lent again
        Differentiable backward = f.backwardFunction(List.of("x"), List.of("0"));
        assertEquals(2, built.size(), "a fresh build for the backward");
        assertTrue(backward == built.get(1));
        backward.close();
        f.close();
        assertEquals(0, built.get(0).closed, "the used one went back");
        cache.build(spec, inputs(1)).close();
        assertEquals(2, built.size(), "and is lent again");
    }

    @Test
    void beyondItsCapacityTheLeastRecentlyUsedAreClosed() throws Exception {
        for (int exclusive = 0; exclusive < 3; exclusive++) {
            cache.build(spec("{exclusive: " + exclusive + "}"), inputs(1)).close();
        }
        assertEquals(1, built.get(0).closed, "the oldest of three, with room for two");
        assertEquals(0, built.get(2).closed);
        cache.clear();
        assertEquals(1, built.get(2).closed);
    }
}
