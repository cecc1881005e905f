package dev.gradcheck.op;

import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A capability: a forward-mode derivative (a JVP) for the checker to compare with J_num·u. Obtained through
 * {@link Differentiable#forwardMode()}.
 */
public interface ForwardMode {

    /**
     * J·t: each floating output's directional derivative along {@code tangents} (one per floating input, zero for
     * those not perturbed), in that output's shape.
     */
    Map<String, INDArray> jvp(Map<String, INDArray> inputs, Map<String, INDArray> tangents);
}
