package dev.gradcheck.op;

import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/** A function that may also have a forward-mode derivative (a JVP) for the checker to compare with J_num·u. */
public interface ForwardMode {

    /** Whether {@link #jvp} is there to check. */
    boolean hasJvp();

    /**
     * J·t: each floating output's directional derivative along {@code tangents} (one per floating input, zero for
     * those not perturbed), in that output's shape.
     */
    Map<String, INDArray> jvp(Map<String, INDArray> inputs, Map<String, INDArray> tangents);
}
