package dev.gradcheck.check;

import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.ForwardingFunction;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The function under test, keeping the determinism row's first backward pass for the mode: where fast mode's one
 * backward pass has the determinism row's cotangent (one checked output, its direction v), the mode is handed the
 * kept answer instead of making the call again. Kept only once determinism held (the same answer twice, and after
 * a forward elsewhere), and handed out once, to a call with the same inputs, cotangents and inputs differentiated.
 */
final class KeptBackward extends ForwardingFunction {

    /** One backward pass's arguments and gradients (own copies). */
    private record Pass(Map<String, INDArray> inputs, Map<String, double[]> cotangents, List<String> wrt,
                        Map<String, INDArray> gradients) {

        boolean sameCall(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> w) {
            if (in != inputs || !w.equals(wrt) || !ct.keySet().equals(cotangents.keySet())) {
                return false;
            }
            for (Map.Entry<String, INDArray> e : ct.entrySet()) {
                if (!Arrays.equals(Flat.values(e.getValue()), cotangents.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
    }

    private boolean recordNext;
    private Pass recorded;
    private boolean handOut;
    /** Whether the mode was handed the kept pass: one call serving two rows, counted in the determinism row alone. */
    private boolean handedOut;

    KeptBackward(Differentiable f) {
        super(f, KeptBackward::new);
    }

    /** The next backward pass is recorded (its answer copied), to be handed out once {@link #handOut} says so. */
    void recordNext() {
        recordNext = true;
        recorded = null;
        handOut = false;
    }

    /** The recorded pass may be handed to the next call with its arguments; or, with {@code judged} false, dropped. */
    void handOut(boolean judged) {
        handOut = judged && recorded != null;
        if (!handOut) {
            recorded = null;
        }
    }

    /** Whether the kept pass went to the mode (which then made no call of its own for it). */
    boolean handedOut() {
        return handedOut;
    }

    @Override
    public Map<String, INDArray> vjpTransient(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                              List<String> wrt) {
        if (handOut && recorded.sameCall(inputs, cotangents, wrt)) {
            Map<String, INDArray> kept = recorded.gradients();
            handOut = false;
            handedOut = true;
            recorded = null;
            return kept;
        }
        Map<String, INDArray> gradients = f.vjpTransient(inputs, cotangents, wrt);
        if (recordNext) {
            recordNext = false;
            recorded = record(inputs, cotangents, wrt, gradients);
        }
        return gradients;
    }

    private static Pass record(Map<String, INDArray> inputs, Map<String, INDArray> cotangents, List<String> wrt,
                               Map<String, INDArray> gradients) {
        Map<String, double[]> ct = new LinkedHashMap<>();
        cotangents.forEach((name, c) -> ct.put(name, Flat.values(c)));
        Map<String, INDArray> copies = new LinkedHashMap<>();
        gradients.forEach((name, g) -> copies.put(name, g == null ? null : g.dup()));
        return new Pass(inputs, ct, List.copyOf(wrt), copies);
    }
}
