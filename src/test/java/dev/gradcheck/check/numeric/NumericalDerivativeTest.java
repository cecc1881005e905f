package dev.gradcheck.check.numeric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.Stencil;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The points a derivative along a direction evaluates are x0 + t·u exactly as ND4J's {@code x0.add(u.mul(t))}
 * computes them (the move is done in Java now), and the inputs are given back bit for bit, however the arrays are
 * laid out.
 */
class NumericalDerivativeTest {

    /** Hands back a copy of what it was given, and keeps one: the points the derivative evaluated. */
    private static class Recorder implements Differentiable {
        final List<INDArray> seen = new ArrayList<>();

        @Override
        public List<String> inputNames() {
            return List.of("x", "w");
        }

        @Override
        public List<String> outputNames() {
            return List.of("y");
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
            seen.add(inputs.get("x").dup());
            return Map.of("y", inputs.get("x").mul(inputs.get("w")));
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                         List<String> wrt) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void theEvaluatedPointsAreNd4jsX0PlusTuAndTheInputsComeBackBitForBit() {
        theEvaluatedPointsAreNd4js(3, 5, 1);
    }

    @Test
    void soAcrossTheStretchesTheMoveIsCopiedInWithNegativeZerosAndASparseDirection() {
        // 9,000 elements: two whole stretches of 4,096 and a part; x holds −0.0 where u is 0 (0·t + −0.0 is +0.0,
        // as ND4J computes it) and u is nonzero on one element in 7, across the stretches' ends
        theEvaluatedPointsAreNd4js(3, 3000, 7);
    }

    @Test
    void soAcrossTheStretchesWithADenseDirectionWrittenBackInBulk() {
        // half the elements move (a stretch is copied back whole), the others keep their bits, −0.0 becoming +0.0
        // where u is 0: a mis-indexed bulk write moves the wrong elements
        theEvaluatedPointsAreNd4js(3, 3000, 2);
    }

    @Test
    void soWithASparseStretchBesideADenseOne() {
        // u nonzero on every element of the first stretch (written and given back whole) and on one in 16 after it
        // (fewer than an eighth: written and given back one by one), in one move
        theEvaluatedPointsAreNd4js(3, 3000, 16, 4096);
    }

    private static void theEvaluatedPointsAreNd4js(int rows, int columns, int every) {
        theEvaluatedPointsAreNd4js(rows, columns, every, 0);
    }

    /** @param denseBelow u is nonzero on every element before this one, on one in {@code every} from it on */
    private static void theEvaluatedPointsAreNd4js(int rows, int columns, int every, int denseBelow) {
        INDArray plain = Nd4j.rand(DataType.DOUBLE, rows, columns).subi(0.5).muli(1e4);
        for (int i : new int[] {0, 4094, 4095, 4096, 8191, 8192, rows * columns - 1}) {
            if (i < rows * columns) {
                plain.putScalar(i, -0.0);
            }
        }
        INDArray columnMajor = plain.dup('f');
        for (INDArray x : List.of(plain, columnMajor)) {
            for (DataType uType : List.of(DataType.DOUBLE, DataType.FLOAT)) {
                INDArray x0 = x.dup(x.ordering());
                INDArray u = Nd4j.randn(DataType.DOUBLE, rows, columns);
                for (int i = 0; i < rows * columns; i++) {
                    if (i >= denseBelow && i % every != 0) {
                        u.putScalar(i, 0.0);
                    }
                }
                u = u.castTo(uType);
                Map<String, INDArray> inputs = new LinkedHashMap<>();
                inputs.put("x", x);
                inputs.put("w", Nd4j.rand(DataType.DOUBLE, rows, columns));
                Recorder f = new Recorder();
                Map<String, INDArray> atX = f.forward(inputs);
                NumericalDerivative d = new NumericalDerivative(f, inputs, atX, List.of("y"),
                        new NumericalDerivative.Scheme(Stencil.CENTRAL, new Step(1e-6, true)), new Counter());
                double t = 1.2345678901234567e-3;
                d.atDirection(Map.of("x", u), t);
                d.atDirection(Map.of("x", u), -t);
                String where = x.ordering() + "-ordered x, " + uType + " u";
                assertArrayEquals(bits(x0.add(u.mul(t))), bits(f.seen.get(1)), where + ": x0 + t·u");
                assertArrayEquals(bits(x0.add(u.mul(-t))), bits(f.seen.get(2)), where + ": x0 − t·u");
                assertArrayEquals(bits(x0), bits(inputs.get("x")), where + ": x given back");
                assertEquals(x.ordering(), inputs.get("x").ordering(), where);
            }
        }
    }

    @Test
    void aForwardThatThrowsStillGetsTheInputsBack() {
        INDArray x = Nd4j.rand(DataType.DOUBLE, 4);
        INDArray x0 = x.dup();
        Map<String, INDArray> inputs = Map.of("x", x);
        Differentiable failing = new Recorder() {
            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> in) {
                throw new IllegalStateException("outside the domain");
            }
        };
        NumericalDerivative d = new NumericalDerivative(failing, inputs, Map.of("y", x0.dup()), List.of("y"),
                new NumericalDerivative.Scheme(Stencil.CENTRAL, new Step(1e-6, true)), new Counter());
        boolean threw = false;
        try {
            d.atDirection(Map.of("x", Nd4j.ones(DataType.DOUBLE, 4)), 0.5);
        } catch (IllegalStateException e) {
            threw = true;
        }
        assertTrue(threw);
        assertArrayEquals(bits(x0), bits(x));
        assertFalse(x.equals(x0.add(0.5)));
    }

    private static long[] bits(INDArray a) {
        double[] v = Flat.values(a);
        long[] b = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = Double.doubleToRawLongBits(v[i]);
        }
        return b;
    }
}
