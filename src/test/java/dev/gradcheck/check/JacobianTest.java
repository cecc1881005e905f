package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.op.Differentiable;
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

    @Test
    void numericalJacobianMatchesTheClosedForm() {
        Map<String, Jacobian> j = NumericalJacobian.compute(f, inputs(), "x", List.of("0", "1"), 1e-6,
                new Counter());
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
        NumericalJacobian.compute(f, inputs(), "x", List.of("0"), 1e-3, new Counter());
        assertEquals(before, x);
    }

    @Test
    void analyticJacobianBuildsRowsFromOneHotCotangents() {
        Map<String, INDArray> zeros = new HashMap<>();
        zeros.put("0", Nd4j.zeros(2, 3));
        zeros.put("1", Nd4j.scalar(0.0));
        Counter passes = new Counter();
        Map<String, Map<String, Jacobian>> j = AnalyticJacobian.compute(f, inputs(), zeros, List.of("0", "1"),
                List.of("x", "w"), passes);
        assertEquals(7, passes.value(), "6 rows for y0, 1 for y1");
        double[] xv = Flat.values(x);
        assertArrayEquals(xv, j.get("1").get("w").values()[0], 1e-12);
        assertEquals(xv[4] * xv[4], j.get("0").get("w").values()[4][4], 1e-12);
        assertEquals(0.0, zeros.get("0").sumNumber().doubleValue(), "cotangents are restored to zero");
    }

    @Test
    void unravelIsRowMajor() {
        assertArrayEquals(new long[] {1, 2}, Flat.unravel(5, new long[] {2, 3}));
        assertArrayEquals(new long[] {0, 0, 1}, Flat.unravel(1, new long[] {2, 2, 2}));
        assertArrayEquals(new long[] {}, Flat.unravel(0, new long[] {}));
    }
}
