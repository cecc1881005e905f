package dev.gradcheck.op;

import java.util.ArrayList;
import java.util.List;
import org.nd4j.autodiff.functions.DifferentialFunction;

/**
 * Which ops have a backward pass: a native {@code NAME_bp} kernel, or a Java {@code doDiff} through which SameDiff
 * differentiates the op.
 *
 * <p>Whether {@code doDiff} works cannot be read off the class: half of ND4J's ops declare one that only throws
 * {@code UnsupportedOperationException} or returns null, and {@code DynamicCustomOp}'s inherited one throws too.
 * So the op is probed: {@code doDiff} is called on a fresh, unconfigured instance with no gradients. An op without
 * a backward throws {@code UnsupportedOperationException} (or returns null, or an empty list) before it looks at
 * anything; a real backward starts building the graph and fails some other way (there is no graph), which
 * counts as "SameDiff differentiates it".
 */
public final class Backwards {

    private Backwards() {}

    /** A native backward kernel, or a Java backward SameDiff can call. */
    public static boolean hasBackward(OpInfo op) {
        return op.bpKernel() || (op.checkable() && sameDiffDifferentiates(op.name()));
    }

    /** Whether the op's SameDiff class has a working {@code doDiff} (probed as described above). */
    public static boolean sameDiffDifferentiates(String opName) {
        DifferentialFunction proto = OpCatalog.prototype(opName);
        if (proto == null) {
            return false;
        }
        DifferentialFunction fresh;
        try {
            var ctor = proto.getClass().getDeclaredConstructor();
            ctor.setAccessible(true);
            fresh = ctor.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
        try {
            var grads = fresh.doDiff(new ArrayList<>());
            return grads != null && !grads.isEmpty();
        } catch (UnsupportedOperationException e) {
            return false;
        } catch (RuntimeException | LinkageError e) {
            return true; // it got past the "not supported" stage and tripped over the missing graph
        }
    }

    /** The ops of the catalog that have a backward, sorted by name. */
    public static List<OpInfo> withBackward(OpCatalog catalog) {
        return catalog.all().stream().filter(Backwards::hasBackward).toList();
    }
}
