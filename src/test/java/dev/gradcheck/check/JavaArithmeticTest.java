package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.op.catalog.AffineInputs;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Small reductions the checker now does in Java instead of through an ND4J op give ND4J's answers: the output
 * scale (amax) and whether a redrawn input is another point (equals).
 */
class JavaArithmeticTest {

    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void theScaleIsNd4jsAmaxForEveryOutputNanIncluded() {
        List<double[]> outputs = List.of(new double[] {-3, 2, 1}, new double[] {-0.0, 1e-300, -2e-300},
                new double[] {1, -INF, 2}, new double[] {5}, new double[] {Double.NaN, 3, -7},
                new double[] {3, Double.NaN, -INF}, new double[] {-1e308, 1e308, 0});
        for (double[] y : outputs) {
            INDArray out = Nd4j.createFromArray(y);
            CheckTarget t = new CheckTarget(1, null, null, Map.of(), Map.of(), List.of(), List.of("y"),
                    Map.of("y", out), Map.of("y", out), AffineInputs.NONE);
            double nd4j = Math.abs(out.castTo(DataType.DOUBLE).amaxNumber().doubleValue());
            assertEquals(Double.doubleToLongBits(nd4j), Double.doubleToLongBits(t.scale("y")),
                    java.util.Arrays.toString(y));
        }
        INDArray floats = Nd4j.createFromArray(0.1f, -0.3f);
        CheckTarget t = new CheckTarget(1, null, null, Map.of(), Map.of(), List.of(), List.of("y"),
                Map.of("y", floats), Map.of("y", floats), AffineInputs.NONE);
        assertEquals(Math.abs(floats.castTo(DataType.DOUBLE).amaxNumber().doubleValue()), t.scale("y"), 0.0);
    }

    /** Plainly different is decided in Java only where ND4J's equals says unequal; anything closer goes to it. */
    @Test
    void aRedrawIsPlainlyDifferentOnlyWhereEqualsCallsItUnequal() {
        INDArray x = Nd4j.createFromArray(0.5, -1.25, 3.0, 100.0);
        assertFalse(GradientChecker.plainlyDifferent(x, x.dup()), "the same values");
        assertFalse(GradientChecker.plainlyDifferent(x, x.add(1e-7)), "within equals' tolerance: equals decides");
        assertTrue(GradientChecker.plainlyDifferent(x, x.add(0.5)));
        assertFalse(GradientChecker.plainlyDifferent(x, x.castTo(DataType.FLOAT).add(0.5)), "another dtype");
        SplittableRandom rnd = new SplittableRandom(7);
        for (int trial = 0; trial < 2000; trial++) {
            int n = 1 + rnd.nextInt(6);
            double[] a = new double[n];
            double[] b = new double[n];
            for (int i = 0; i < n; i++) {
                double scale = Math.pow(10, rnd.nextInt(-8, 9));
                a[i] = (rnd.nextDouble() - 0.5) * scale;
                b[i] = switch (rnd.nextInt(4)) {
                    case 0 -> a[i];
                    case 1 -> a[i] * (1 + (rnd.nextDouble() - 0.5) * 1e-2);
                    case 2 -> a[i] + (rnd.nextDouble() - 0.5) * 1e-2;
                    default -> (rnd.nextDouble() - 0.5) * scale;
                };
            }
            INDArray first = Nd4j.createFromArray(a);
            INDArray second = Nd4j.createFromArray(b);
            if (GradientChecker.plainlyDifferent(first, second)) {
                assertFalse(first.equals(second), java.util.Arrays.toString(a) + " vs " + java.util.Arrays.toString(b));
            }
        }
    }
}
