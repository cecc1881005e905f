package dev.gradcheck.check.numeric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gradcheck.spec.InputValues;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Seeded draws are a function of seed, label and size: kept draws give the values a new draw would, in new arrays. */
class SeededTest {

    @Test
    void aDrawIsTheSameEveryTimeInAnArrayOfItsOwn() {
        long[] shape = {3, 4};
        double[] expected = new double[12];
        SplittableRandom rnd = Seeded.stream(42, "fast-u:x");
        double norm = 0;
        for (int i = 0; i < expected.length; i++) {
            expected[i] = InputValues.gaussian(rnd);
            norm += expected[i] * expected[i];
        }
        double[] gaussian = expected.clone();
        for (int i = 0; i < expected.length; i++) {
            expected[i] /= Math.sqrt(norm);
        }
        INDArray first = Seeded.unit(42, "fast-u:x", shape);
        assertArrayEquals(expected, Flat.values(first), 0.0, "normalised Gaussian values, row-major");
        assertArrayEquals(shape, first.shape());
        first.muli(7); // a caller's array is its own
        INDArray again = Seeded.unit(42, "fast-u:x", shape);
        assertArrayEquals(expected, Flat.values(again), 0.0, "the kept draw, untouched");
        assertArrayEquals(gaussian, Flat.values(Seeded.gaussian(42, "fast-u:x", shape)), 0.0, "not normalised");
        assertArrayEquals(new long[] {12}, Seeded.unit(42, "fast-u:x", new long[] {12}).shape(), "shaped per call");
        assertFalse(java.util.Arrays.equals(Flat.values(again), Flat.values(Seeded.unit(43, "fast-u:x", shape))));
        assertFalse(java.util.Arrays.equals(Flat.values(again), Flat.values(Seeded.unit(42, "fast-u:y", shape))));
        assertEquals(1.0, Math.sqrt(Flat.values(again).length == 0 ? 0
                : java.util.Arrays.stream(Flat.values(again)).map(v -> v * v).sum()), 1e-12);
    }
}
