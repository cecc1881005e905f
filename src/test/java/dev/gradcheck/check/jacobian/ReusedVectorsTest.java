package dev.gradcheck.check.jacobian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.gradcheck.check.Functions;
import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.Step;
import dev.gradcheck.check.numeric.VectorPool;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.Stencil;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A side hands a vector it was given back out again, and what it writes there is what a fresh side computes: the
 * same bits, whatever the vector held before (every stencil's points go through the pool too).
 */
class ReusedVectorsTest {

    private final Differentiable f = Functions.squareAndDot();

    private Map<String, INDArray> inputs() {
        Map<String, INDArray> in = new HashMap<>();
        in.put("x", Nd4j.createFromArray(new double[][] {{1, 2, 3}, {-1, 0.5, 4}}));
        in.put("w", Nd4j.createFromArray(new double[][] {{0.5, -1, 2}, {1, 1, -0.25}}));
        return in;
    }

    private NumericalJacobian numerical(Stencil stencil) {
        Map<String, INDArray> in = inputs();
        NumericalDerivative d = new NumericalDerivative(f, in, f.forward(in), List.of("0"),
                new NumericalDerivative.Scheme(stencil, new Step(1e-3, true)), new Counter());
        return new NumericalJacobian(Map.of("x", d), List.of("x"), List.of("0"), Map.of("0", new long[] {2, 3}), f,
                in);
    }

    @Test
    void aDifferenceGivenBackIsReusedAndHoldsWhatAFreshSideComputes() {
        for (Stencil stencil : Stencil.values()) {
            NumericalJacobian reused = numerical(stencil);
            int[] group = {0, 4, 5};
            double[] weights = {1.25, -1.5, 1.75};
            double[] first = reused.evaluate("x", group, weights).get("0");
            double[] expected = first.clone();
            java.util.Arrays.fill(first, Double.NaN); // what a reader may leave in it
            reused.giveBack(Map.of("0", first));
            double[] again = reused.evaluate("x", group, weights).get("0");
            assertSame(first, again, stencil + ": the vector given back is handed out again");
            assertArrayEquals(expected, again, 0, stencil.toString());
            assertArrayEquals(expected, numerical(stencil).evaluate("x", group, weights).get("0"), 0,
                    stencil + ": as a fresh side");
            double[] single = reused.evaluate("x", new int[] {2}, new double[] {1}).get("0");
            assertNotSame(again, single, "a vector not given back is not handed out twice");
            assertArrayEquals(numerical(stencil).evaluate("x", new int[] {2}, new double[] {1}).get("0"), single, 0);
        }
    }

    @Test
    void aBackwardPassGivenBackIsReusedAndHoldsWhatAFreshSideComputes() {
        Map<String, INDArray> zeros = Map.of("0", Nd4j.zeros(DataType.DOUBLE, 2, 3), "1",
                Nd4j.scalar(0.0));
        AnalyticJacobian side = new AnalyticJacobian(f, inputs(), zeros, List.of("0"), List.of("x", "w"));
        Map<String, double[]> first = side.evaluate("0", new int[] {1, 3}, new double[] {1.5, -0.75});
        double[] x = first.get("x").clone();
        double[] w = first.get("w").clone();
        java.util.Arrays.fill(first.get("x"), Double.NaN);
        side.giveBack(first);
        Map<String, double[]> again = side.evaluate("0", new int[] {1, 3}, new double[] {1.5, -0.75});
        assertArrayEquals(x, again.get("x"), 0);
        assertArrayEquals(w, again.get("w"), 0);
        assertEquals(1.5 * 2 * 2 * -1, again.get("x")[1], 1e-12, "d y0[1] / d x[1] = 2·x·w, weighted");
        assertSame(first.get("x"), again.get("x"), "the vectors given back are handed out again, first come first");
    }

    @Test
    void noPoolKeepsNothing() {
        double[] v = VectorPool.NONE.take(4);
        VectorPool.NONE.giveBack(v);
        assertNotSame(v, VectorPool.NONE.take(4));
        VectorPool pool = VectorPool.reusing();
        pool.giveBack(v);
        assertNotSame(v, pool.take(5), "only a vector of the length asked for");
        assertSame(v, pool.take(4));
        assertNotSame(v, pool.take(4), "and once");
    }
}
