package dev.gradcheck.op;

import dev.gradcheck.spec.GraphNode;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A capability of a function that decomposes into nodes (a graph spec): one forward pass captures what each node
 * read, so the checker can check every node on its own and name the one whose backward is wrong. Obtained through
 * {@link Differentiable#nodeCapture()}.
 */
public interface NodeCapture {

    /** One node and the arrays it read, in its argument order (a variable passed twice appears twice). */
    record CapturedNode(GraphNode node, List<INDArray> arguments) {}

    /** Every node, in graph order, with its arguments at {@code inputs}, from one forward pass. */
    List<CapturedNode> captureNodes(Map<String, INDArray> inputs);
}
