package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * ForwardingFunction is the one place a wrapper's capabilities are passed on: every method of Differentiable is
 * decided there (a capability added to the interface fails here until it is), and copies go with readyCopies.
 */
class ForwardingFunctionTest {

    /** Three copies at hand, each copy a new instance; no arrays are touched. */
    private static final class Copyable implements Differentiable {
        @Override
        public List<String> inputNames() {
            return List.of("x");
        }

        @Override
        public List<String> outputNames() {
            return List.of("0");
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
            return Map.of();
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                         List<String> wrt) {
            return Map.of();
        }

        @Override
        public int readyCopies() {
            return 3;
        }

        @Override
        public Differentiable copy() {
            return new Copyable();
        }
    }

    private static final class OneThread extends ForwardingFunction {
        OneThread(Differentiable f) {
            super(f);
        }
    }

    private static final class Rewrapped extends ForwardingFunction {
        Rewrapped(Differentiable f) {
            super(f, Rewrapped::new);
        }
    }

    @Test
    void everyMethodOfTheContractIsDecidedInTheForwardingBase() {
        List<String> undecided = new ArrayList<>();
        for (Method m : Differentiable.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            try {
                ForwardingFunction.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
            } catch (NoSuchMethodException e) {
                undecided.add(m.getName());
            }
        }
        assertTrue(undecided.isEmpty(), "pass these on (or decide them) in ForwardingFunction: " + undecided);
    }

    @Test
    void aWrapperThatCannotCopyItselfHasNoCopiesAtHand() {
        Differentiable wrapper = new OneThread(new Copyable());
        assertEquals(0, wrapper.readyCopies(), "the wrapped function's copies would compute without the wrapper");
        assertThrows(UnsupportedOperationException.class, wrapper::copy);
    }

    @Test
    void aWrapperCopiedAroundACopyHasTheWrappedFunctionsCopiesAtHand() {
        Copyable wrapped = new Copyable();
        Rewrapped wrapper = new Rewrapped(wrapped);
        assertEquals(3, wrapper.readyCopies());
        Differentiable copy = wrapper.copy();
        assertInstanceOf(Rewrapped.class, copy);
        assertInstanceOf(Copyable.class, ((Rewrapped) copy).f);
        assertTrue(((Rewrapped) copy).f != wrapped, "around a copy, not around the same function");
        assertSame(wrapped, wrapper.f);
    }
}
