package dev.gradcheck.check.jacobian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.Functions;
import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.Seeded;
import dev.gradcheck.check.numeric.Step;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.Stencil;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The two Jacobian builders against closed forms. */
class JacobianTest {

    private final Differentiable f = Functions.squareAndDot();
    private final INDArray x = Nd4j.createFromArray(new double[][] {{1, 2, 3}, {-1, 0.5, 4}});
    private final INDArray w = Nd4j.createFromArray(new double[][] {{0.5, -1, 2}, {1, 1, -0.25}});

    private Map<String, INDArray> inputs() {
        Map<String, INDArray> in = new HashMap<>();
        in.put("x", x);
        in.put("w", w);
        return in;
    }

    private Map<String, Jacobian> numerical(Map<String, INDArray> in, List<String> outputs, double delta,
                                            int[] cols) {
        NumericalDerivative d = new NumericalDerivative(f, in, f.forward(in), outputs,
                new NumericalDerivative.Scheme(Stencil.CENTRAL, new Step(delta, true)), new Counter());
        Map<String, long[]> shapes = Map.of("0", new long[] {2, 3}, "1", new long[] {});
        return NumericalJacobian.compute(d, "x", outputs, shapes, cols);
    }

    @Test
    void numericalJacobianMatchesTheClosedForm() {
        Map<String, Jacobian> j = numerical(inputs(), List.of("0", "1"), 1e-6, null);
        double[][] d0 = j.get("0").values();
        double[] xv = Flat.values(x);
        double[] wv = Flat.values(w);
        for (int r = 0; r < 6; r++) {
            for (int c = 0; c < 6; c++) {
                assertEquals(r == c ? 2 * xv[c] * wv[c] : 0, d0[r][c], 1e-8, "d y0[" + r + "] / d x[" + c + "]");
            }
        }
        assertArrayEquals(wv, j.get("1").values()[0], 1e-8);
        assertArrayEquals(new long[] {2, 3}, j.get("0").outputShape());
    }

    @Test
    void numericalJacobianRestoresTheInputExactly() {
        INDArray before = x.dup();
        numerical(inputs(), List.of("0"), 1e-3, null);
        assertEquals(before, x);
    }

    @Test
    void sampledColumnsAreTheRequestedOnes() {
        Map<String, Jacobian> j = numerical(inputs(), List.of("0"), 1e-6, new int[] {1, 4});
        Jacobian d0 = j.get("0");
        assertEquals(2, d0.colCount());
        assertEquals(4, d0.col(1));
        double[] xv = Flat.values(x);
        double[] wv = Flat.values(w);
        assertEquals(2 * xv[4] * wv[4], d0.values()[4][1], 1e-8, "column 1 is x[4]");
        assertEquals(0, d0.values()[1][1], 1e-8);
        Jacobian diagonal = d0.select(new int[] {1, 4}, null);
        assertEquals(2 * xv[1] * wv[1], diagonal.values()[0][0], 1e-8);
        assertEquals(0, diagonal.values()[0][1], 1e-8);
    }

    @Test
    void samplesAreSeededDistinctAndSorted() {
        int[] a = Seeded.sample(7, "columns:x", 100, 10);
        assertArrayEquals(a, Seeded.sample(7, "columns:x", 100, 10), "same seed, same sample");
        assertEquals(10, java.util.Arrays.stream(a).distinct().count());
        for (int i = 1; i < a.length; i++) {
            assertTrue(a[i - 1] < a[i]);
        }
        assertFalse(java.util.Arrays.equals(a, Seeded.sample(8, "columns:x", 100, 10)), "another seed, another one");
        assertNull(Seeded.sample(7, "columns:x", 10, 10), "a budget as large as the input checks everything");
    }

    @Test
    void analyticJacobianBuildsRowsFromOneHotCotangents() {
        Map<String, INDArray> zeros = new HashMap<>();
        zeros.put("0", Nd4j.zeros(2, 3));
        zeros.put("1", Nd4j.scalar(0.0));
        AnalyticJacobian both = new AnalyticJacobian(f, inputs(), zeros, List.of("0", "1"), List.of("x", "w"));
        Map<String, Jacobian> j0 = both.rows("0", null);
        Map<String, Jacobian> j1 = both.rows("1", null);
        assertEquals(7, both.evaluations("0") + both.evaluations("1"), "6 rows for y0, 1 for y1");
        double[] xv = Flat.values(x);
        assertArrayEquals(xv, j1.get("w").values()[0], 1e-12);
        assertEquals(xv[4] * xv[4], j0.get("w").values()[4][4], 1e-12);
        AnalyticJacobian ofW = new AnalyticJacobian(f, inputs(), zeros, List.of("0"), List.of("w"));
        Map<String, Jacobian> rows = ofW.rows("0", new int[] {4});
        assertEquals(8, both.evaluations("0") + both.evaluations("1") + ofW.evaluations("0"),
                "a sampled row costs one pass");
        assertEquals(xv[4] * xv[4], rows.get("w").values()[0][4], 1e-12);
        assertEquals(0.0, zeros.get("0").sumNumber().doubleValue(), "cotangents are restored to zero");
    }

    @Test
    void unravelIsRowMajor() {
        assertArrayEquals(new long[] {1, 2}, Flat.unravel(5, new long[] {2, 3}));
        assertArrayEquals(new long[] {0, 0, 1}, Flat.unravel(1, new long[] {2, 2, 2}));
        assertArrayEquals(new long[] {}, Flat.unravel(0, new long[] {}));
    }
}
