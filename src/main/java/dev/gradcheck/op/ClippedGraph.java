package dev.gradcheck.op;

import dev.gradcheck.spec.GraphSpec;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A capability of a function whose backward clips gradients (a graph spec with {@code error_clip}): central
 * differences of its forward cannot be its numerical reference, because a clip changes the backward, not the
 * forward. It lets the checker split it at its clipped variables instead, with only forward evaluations: every
 * variable's value, with the clipped ones optionally held at given values. Obtained through
 * {@link Differentiable#clippedGraph()}.
 */
public interface ClippedGraph {

    /** The graph: its nodes (with their clips), output and input clips. */
    GraphSpec graph();

    /** The graph's inputs, in argument order. */
    List<String> inputNames();

    /** Every variable's value: the inputs given and each node's output, evaluated node by node. */
    Map<String, INDArray> values(Map<String, INDArray> inputs);

    /**
     * Like {@link #values}, but each node output named in {@code held} feeds its consumers the held array instead
     * of what its node computed; the map still returns what the node computed.
     */
    Map<String, INDArray> valuesHolding(Map<String, INDArray> inputs, Map<String, INDArray> held);
}
