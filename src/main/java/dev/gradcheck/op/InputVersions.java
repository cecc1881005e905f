package dev.gradcheck.op;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.bytedeco.javacpp.Pointer;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Tells whether a function's input arrays hold new values since the last call: a version number that grows when a
 * floating input's bytes change, and a flag when a fixed (integer or boolean) one does. A compiled graph reruns
 * the steps that read the inputs only when the version moved, so the M backward passes of a full check at one
 * point compute the forward part once. Comparing bytes (a native memcmp) costs far less than one op.
 */
final class InputVersions {

    /**
     * One input array and the copy of what it last held, with both buffers' addresses looked up once: each lookup
     * is a native call that makes a pointer object, and every call of the function compares each input (the
     * arrays are the function's own, kept for its life, so their buffers stay where they are).
     */
    private record Watched(INDArray array, INDArray seen, Pointer now, Pointer before, long bytes, boolean floating) {

        static Watched of(INDArray arr) {
            INDArray seen = comparable(arr) ? arr.dup('c') : null;
            return new Watched(arr, seen, seen == null ? null : arr.data().addressPointer(),
                    seen == null ? null : seen.data().addressPointer(), arr.length() * arr.dataType().width(),
                    arr.dataType().isFPType());
        }
    }

    private final Map<String, Watched> watched = new HashMap<>();
    private long version = 1;
    private boolean fixedInputChanged;

    /** @param arrays input name → the array its values are assigned into */
    InputVersions(Map<String, INDArray> arrays) {
        arrays.forEach((name, arr) -> {
            if (!arr.isEmpty()) { // nothing in it can change
                watched.put(name, Watched.of(arr));
            }
        });
    }

    /** Only plain C-ordered buffers of their own are compared byte for byte; others count as changed every call. */
    private static boolean comparable(INDArray arr) {
        return !arr.isView() && arr.ordering() == 'c' && arr.dataType().width() > 0;
    }

    /** Looks at the named inputs after they were assigned; returns the version their values belong to. */
    long update(Collection<String> assigned) {
        boolean changed = false;
        for (String name : assigned) {
            Watched w = watched.get(name);
            if (w == null) {
                continue;
            }
            if (w.seen() == null) {
                changed |= w.floating();
                fixedInputChanged |= !w.floating();
                continue;
            }
            if (Pointer.memcmp(w.now(), w.before(), w.bytes()) != 0) {
                Pointer.memcpy(w.before(), w.now(), w.bytes());
                changed |= w.floating();
                fixedInputChanged |= !w.floating();
            }
        }
        if (changed) {
            version++;
        }
        return version;
    }

    long version() {
        return version;
    }

    /** An integer or boolean input changed: the compiled shapes may no longer hold. */
    boolean fixedInputChanged() {
        return fixedInputChanged;
    }
}
