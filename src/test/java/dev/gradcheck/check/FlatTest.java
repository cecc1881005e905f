package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

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
}
