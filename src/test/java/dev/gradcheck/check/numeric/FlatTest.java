package dev.gradcheck.check.numeric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/** Flat.values reads every layout the same way: row-major values, whatever the strides, offset or dtype. */
class FlatTest {

    private static final double[] ROW_MAJOR = {1, 2, 3, 4, 5, 6};

    @Test
    void plainArraysAndEveryOtherLayoutGiveTheRowMajorValues() {
        INDArray c = Nd4j.createFromArray(ROW_MAJOR).reshape('c', 2, 3);
        assertArrayEquals(ROW_MAJOR, Flat.values(c), 0.0, "plain float64: the block copy");
        assertArrayEquals(ROW_MAJOR, Flat.values(c.dup('f')), 0.0, "column-major buffer");
        assertArrayEquals(new double[] {1, 4, 2, 5, 3, 6}, Flat.values(c.transpose()), 0.0, "transposed view");
        assertArrayEquals(new double[] {2, 3, 5, 6}, Flat.values(c.get(NDArrayIndex.all(),
                NDArrayIndex.interval(1, 3))), 0.0, "a view with an offset and gaps");
        assertArrayEquals(new double[] {4, 5, 6}, Flat.values(c.getRow(1)), 0.0, "a row: offset into the buffer");
        assertArrayEquals(ROW_MAJOR, Flat.values(c.castTo(DataType.FLOAT)), 0.0, "float32");
        assertArrayEquals(new double[] {7}, Flat.values(Nd4j.scalar(7.0)), 0.0, "a scalar");
        assertArrayEquals(new double[0], Flat.values(Nd4j.create(DataType.DOUBLE, 0)), 0.0, "empty");
    }

    @Test
    void valuesAtSomePositionsAreThoseOfTheRowMajorValues() {
        INDArray c = Nd4j.createFromArray(ROW_MAJOR).reshape('c', 2, 3);
        int[] at = {5, 0, 3};
        assertArrayEquals(new double[] {6, 1, 4}, Flat.valuesAt(c, at), 0.0, "plain float64: read in place");
        assertArrayEquals(new double[] {6, 1, 4}, Flat.valuesAt(c.dup('f'), at), 0.0, "column-major buffer");
        assertArrayEquals(new double[] {6, 5}, Flat.valuesAt(c.getRow(1), new int[] {2, 1}), 0.0,
                "a row: offset into the buffer");
        assertArrayEquals(new double[] {6, 1, 4}, Flat.valuesAt(c.castTo(DataType.FLOAT), at), 0.0, "float32");
    }

    /** Flat.array makes one array where createFromArray(...).reshape(...) made two: the same dtype, shape, values. */
    @Test
    void anArrayFromValuesIsTheOneCreateFromArrayThenReshapeMade() {
        for (long[] shape : List.of(new long[] {6}, new long[] {2, 3}, new long[] {1, 2, 3}, new long[0],
                new long[] {1}, new long[] {0, 3})) {
            double[] v = new double[Math.toIntExact(Flat.size(shape))];
            for (int i = 0; i < v.length; i++) {
                v[i] = Math.PI * (i + 1) / 7;
            }
            INDArray before = Nd4j.createFromArray(v).reshape('c', shape).castTo(DataType.DOUBLE);
            INDArray now = Flat.array(v, shape);
            String where = Arrays.toString(shape);
            assertEquals(before.dataType(), now.dataType(), where);
            assertArrayEquals(before.shape(), now.shape(), where);
            assertEquals(before.ordering(), now.ordering(), where);
            assertArrayEquals(Flat.values(before), Flat.values(now), 0.0, where);
        }
    }

    /** Flat.write fills a plain float64 array in one block and leaves any other array alone, saying so. */
    @Test
    void writeFillsPlainFloat64ArraysAndRefusesEveryOtherLayout() {
        INDArray plain = Nd4j.create(DataType.DOUBLE, 2, 3);
        assertTrue(Flat.write(plain, ROW_MAJOR));
        assertArrayEquals(ROW_MAJOR, Flat.values(plain), 0.0);
        assertEquals(4.0, plain.getDouble(1, 0), "row-major: the second row starts with the fourth value");

        INDArray matrix = Nd4j.createFromArray(ROW_MAJOR).reshape('c', 2, 3);
        INDArray row = matrix.getRow(1);
        assertFalse(Flat.write(row, new double[] {9, 9, 9}), "a view into another buffer");
        assertFalse(Flat.write(matrix.transpose(), ROW_MAJOR), "odd strides");
        assertFalse(Flat.write(matrix.castTo(DataType.FLOAT), ROW_MAJOR), "float32");
        assertFalse(Flat.write(matrix, new double[] {1, 2}), "another length");
        assertArrayEquals(ROW_MAJOR, Flat.values(matrix), 0.0, "nothing written");
    }
}
