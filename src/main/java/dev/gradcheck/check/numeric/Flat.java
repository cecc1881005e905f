package dev.gradcheck.check.numeric;

import dev.gradcheck.op.PlainArrays;
import org.bytedeco.javacpp.DoublePointer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.concurrency.AffinityManager;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Row-major index arithmetic and array flattening. */
public final class Flat {

    private Flat() {}

    /**
     * The values in row-major order, as doubles. A plain float64 array (own buffer, row-major, no offset) is copied
     * in one block: ND4J's own route (a cast, a copy, then element by element) costs ~100 µs at 4000 elements,
     * and a full check converts one array per evaluation.
     */
    public static double[] values(INDArray a) {
        return values(a, VectorPool.NONE);
    }

    /** The same, into a vector taken from {@code pool} where the array is plain float64. */
    public static double[] values(INDArray a, VectorPool pool) {
        if (plainDouble(a)) {
            double[] out = pool.take(Math.toIntExact(a.length()));
            new DoublePointer(a.data().addressPointer()).get(out);
            return out;
        }
        return a.castTo(DataType.DOUBLE).dup('c').data().asDouble();
    }

    /**
     * Writes {@code values} (row-major) into a plain float64 array in one block, as {@link #values} reads one;
     * false, writing nothing, when the array is not plain or not that long. Cheaper than any ND4J call that
     * could do it: those make an op, or an array, per call.
     */
    static boolean write(INDArray a, double[] values) {
        if (!plainDouble(a) || a.length() != values.length) {
            return false;
        }
        new DoublePointer(a.data().addressPointer()).put(values);
        // the host copy is now the newest (nothing on the CPU backend; a device buffer is refreshed from it)
        Nd4j.getAffinityManager().tagLocation(a, AffinityManager.Location.HOST);
        return true;
    }

    /**
     * The values at these flat positions (row-major), read in place where the array is plain float64: a line probed
     * at a few of its outputs need not copy all of them.
     */
    public static double[] valuesAt(INDArray a, int[] positions) {
        java.nio.DoubleBuffer in = view(a);
        double[] all = in == null ? values(a) : null;
        double[] out = new double[positions.length];
        for (int k = 0; k < positions.length; k++) {
            out[k] = in == null ? all[positions[k]] : in.get(positions[k]);
        }
        return out;
    }

    /**
     * The values of a plain float64 array in place, row-major, read and written without a copy; null where the
     * array is not plain float64. Whoever writes through it tags the array's host copy as the newest
     * ({@link #written}), as {@link #write} does.
     */
    static java.nio.DoubleBuffer view(INDArray a) {
        if (!plainDouble(a)) {
            return null;
        }
        DoublePointer p = new DoublePointer(a.data().addressPointer());
        return p.position(0).limit(a.length()).asBuffer();
    }

    /** After writing through {@link #view}: the host copy is the newest (nothing on the CPU backend). */
    static void written(INDArray a) {
        Nd4j.getAffinityManager().tagLocation(a, AffinityManager.Location.HOST);
    }

    /**
     * A float64 array of the given shape holding {@code values} in row-major order: one array filled in one block,
     * where {@code createFromArray(values).reshape(shape)} makes two (each with its native shape buffer, which
     * costs more than filling a few hundred values) and fills the first value by value. Scalars and empty shapes
     * take that route still.
     */
    public static INDArray array(double[] values, long[] shape) {
        if (values.length > 0 && shape.length > 0 && size(shape) == values.length) {
            INDArray a = Nd4j.createUninitialized(DataType.DOUBLE, shape, 'c');
            if (write(a, values)) {
                return a;
            }
        }
        return Nd4j.createFromArray(values).reshape('c', shape).castTo(DataType.DOUBLE);
    }

    /** Float64 in its own buffer, row-major, without offset or odd strides: its values are one block of doubles. */
    private static boolean plainDouble(INDArray a) {
        return a.dataType() == DataType.DOUBLE && PlainArrays.isPlain(a);
    }

    public static long size(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    public static long[] unravel(long flat, long[] shape) {
        long[] idx = new long[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            idx[d] = shape[d] == 0 ? 0 : flat % shape[d];
            flat = shape[d] == 0 ? 0 : flat / shape[d];
        }
        return idx;
    }
}
