package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** PlainArrays.copy is assign, bit for bit, whichever way it takes. */
class PlainArraysTest {

    private static INDArray awkward(DataType dtype, long... shape) {
        return Nd4j.rand(DataType.DOUBLE, shape).subi(0.5).muli(1e3).castTo(dtype);
    }

    @Test
    void aCopyHoldsTheSameBitsAsAssignForEveryDtypeAndLayout() {
        for (DataType dtype : List.of(DataType.DOUBLE, DataType.FLOAT, DataType.HALF, DataType.INT, DataType.LONG)) {
            INDArray src = awkward(dtype, 3, 4);
            INDArray byAssign = Nd4j.create(dtype, 3, 4).assign(src);
            INDArray byCopy = Nd4j.create(dtype, 3, 4);
            assertTrue(PlainArrays.isPlain(byCopy) && PlainArrays.isPlain(src), "both plain: the memory copy");
            PlainArrays.copy(byCopy, src);
            assertArrayEquals(bytes(byAssign), bytes(byCopy), dtype.toString());
        }
        // the ways that fall back to assign: a view destination, a transposed source, another dtype
        INDArray src = awkward(DataType.DOUBLE, 4, 4);
        INDArray big = Nd4j.zeros(DataType.DOUBLE, 8, 4);
        INDArray view = big.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(2, 6),
                org.nd4j.linalg.indexing.NDArrayIndex.all());
        assertFalse(PlainArrays.isPlain(view));
        PlainArrays.copy(view, src);
        assertArrayEquals(bytes(src), bytes(view.dup()));
        assertArrayEquals(new double[4], big.getRow(0).toDoubleVector(), 0.0, "nothing outside the view");
        INDArray fromTransposed = Nd4j.create(DataType.DOUBLE, 4, 4);
        PlainArrays.copy(fromTransposed, src.transpose());
        assertArrayEquals(bytes(src.transpose().dup('c')), bytes(fromTransposed));
        INDArray asFloat = Nd4j.create(DataType.FLOAT, 4, 4);
        PlainArrays.copy(asFloat, src);
        assertArrayEquals(bytes(Nd4j.create(DataType.FLOAT, 4, 4).assign(src)), bytes(asFloat), "converted");
    }

    @Test
    void sameBitsSaysSameOnlyForTheSameBitsOfPlainArrays() {
        INDArray a = awkward(DataType.DOUBLE, 3, 4);
        assertTrue(PlainArrays.sameBits(a, a.dup()));
        INDArray negativeZero = a.dup();
        a.putScalar(5, 0.0);
        negativeZero.putScalar(5, -0.0); // equal as doubles, not as bits: the careful comparison decides
        assertFalse(PlainArrays.sameBits(a, negativeZero));
        INDArray last = a.dup();
        last.putScalar(11, Math.nextUp(a.getDouble(11)));
        assertFalse(PlainArrays.sameBits(a, last), "the last element counts");
        assertFalse(PlainArrays.sameBits(a, a.castTo(DataType.FLOAT)), "another dtype");
        assertFalse(PlainArrays.sameBits(a, a.dup('f')), "not plain: the caller compares its own way");
        assertFalse(PlainArrays.sameBits(a, a.reshape(4, 3).dup()), "another shape");
    }

    private static byte[] bytes(INDArray a) {
        return CompiledGraph.bytes(a);
    }
}
