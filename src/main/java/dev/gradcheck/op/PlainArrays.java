package dev.gradcheck.op;

import java.util.Arrays;
import org.bytedeco.javacpp.Pointer;
import org.nd4j.linalg.api.concurrency.AffinityManager;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.shape.Shape;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Arrays whose values are one block of memory, and copies between them without an op. A check copies small arrays
 * thousands of times (inputs into a compiled graph, a cotangent per backward pass); ND4J's {@code assign} makes an
 * op context per call, which costs more than copying a few hundred values.
 */
public final class PlainArrays {

    private PlainArrays() {}

    /** In its own buffer, row-major, without offset or odd strides, not empty: its values are one block. */
    public static boolean isPlain(INDArray a) {
        return a.length() > 0 && !a.isView() && a.ordering() == 'c' && a.data().length() == a.length()
                && a.dataType().width() > 0 && Shape.hasDefaultStridesForShape(a);
    }

    /**
     * Whether two plain arrays of one dtype and shape hold the same bits (one native compare, no copies); false
     * where either is not plain, which says nothing: callers then compare as they would have.
     */
    public static boolean sameBits(INDArray a, INDArray b) {
        return a.dataType() == b.dataType() && Arrays.equals(a.shape(), b.shape()) && isPlain(a) && isPlain(b)
                && Pointer.memcmp(a.data().addressPointer(), b.data().addressPointer(),
                        a.length() * a.dataType().width()) == 0;
    }

    /**
     * {@code dst.assign(src)}: the same values, bit for bit. One memory copy when both are plain and of one dtype
     * and shape (assign would convert nothing then); ND4J's assign otherwise.
     */
    public static void copy(INDArray dst, INDArray src) {
        if (dst.dataType() == src.dataType() && Arrays.equals(dst.shape(), src.shape()) && isPlain(dst)
                && isPlain(src)) {
            Pointer.memcpy(dst.data().addressPointer(), src.data().addressPointer(),
                    dst.length() * dst.dataType().width());
            // the host copy is now the newest (nothing on the CPU backend; a device buffer is refreshed from it)
            Nd4j.getAffinityManager().tagLocation(dst, AffinityManager.Location.HOST);
        } else {
            dst.assign(src);
        }
    }
}
