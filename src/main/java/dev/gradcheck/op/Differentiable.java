package dev.gradcheck.op;

import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A function under check, built once and evaluated many times: the checker never rebuilds a graph per evaluation.
 * Inputs and outputs are named; the arrays passed in are copied into the function, so callers may keep
 * perturbing their own.
 */
public interface Differentiable extends AutoCloseable {

    /** Input names, in the op's argument order. */
    List<String> inputNames();

    /** Output names, in the op's output order. */
    List<String> outputNames();

    /** Evaluates every output at the given input values; the returned arrays belong to the caller. */
    Map<String, INDArray> forward(Map<String, INDArray> inputs);

    /**
     * The analytic vector-Jacobian product: gradients of {@code Σ_k sum(cotangent_k ⊙ output_k)} with respect to
     * each input in {@code wrt}. An input the backward gives no gradient to is absent from the result.
     */
    Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents, List<String> wrt);

    @Override
    default void close() {}
}
