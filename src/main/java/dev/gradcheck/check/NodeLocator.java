package dev.gradcheck.check;

import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jTypes;
import dev.gradcheck.op.NodeCapture;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.GraphNode;
import dev.gradcheck.spec.Init;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Locates the wrong op of a failing graph: runs the graph forward once, then checks each node as a one-op spec
 * whose inputs are the values the node saw ({@code init: values}), through the same {@link GradientChecker}.
 */
final class NodeLocator {

    private final FunctionFactory factory;
    private final GradientChecker checker;

    NodeLocator(FunctionFactory factory, GradientChecker checker) {
        this.factory = factory;
        this.checker = checker;
    }

    /** Every node's own check, in graph order; empty when the function built does not decompose into nodes. */
    List<NodeFinding> locate(OpSpec spec) throws Exception {
        Map<String, INDArray> inputs = DrawnInputs.underTest(spec, spec.seed());
        List<NodeFinding> findings = new ArrayList<>();
        try (Differentiable f = factory.build(spec, inputs)) {
            Optional<NodeCapture> graph = f.nodeCapture();
            if (graph.isEmpty()) {
                return List.of();
            }
            for (NodeCapture.CapturedNode captured : graph.get().captureNodes(inputs)) {
                GraphNode node = captured.node();
                OpSpec nodeSpec = spec.nodeSpec(node, captured(node, captured.arguments()));
                findings.add(finding(node, checker.check(nodeSpec)));
            }
        }
        findings.sort(java.util.Comparator.comparingInt(NodeFinding::node));
        return findings;
    }

    /** The node's arguments as spec inputs holding the captured values; a variable read twice gets "#2". */
    private static List<InputSpec> captured(GraphNode node, List<INDArray> arrays) {
        List<InputSpec> specs = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        for (int k = 0; k < arrays.size(); k++) {
            INDArray a = arrays.get(k);
            String name = node.in().get(k).value();
            for (int copy = 2; !taken.add(name); copy++) {
                name = node.in().get(k).value() + "#" + copy;
            }
            DType dtype = Nd4jTypes.toSpec(a.dataType()).orElseThrow(
                    () -> new IllegalStateException("node input of type " + a.dataType()));
            specs.add(new InputSpec(name, a.shape(), dtype, new Init.Values(Flat.values(a)), node.in().get(k).pos()));
        }
        return specs;
    }

    /** The node's worst block is named by the node's out, not the one-op spec's output index "0". */
    private static NodeFinding finding(GraphNode node, CheckResult r) {
        GradientResult w = r.worstGradient();
        GradientResult named = w == null ? null : new GradientResult(node.out().value(), w.input(), w.kind(),
                w.order(), w.verdict(), w.maxAbsError(), w.maxRelError(), w.maxScore(), w.worst(), w.evaluations(),
                w.seconds(), w.note(), w.sampling());
        return new NodeFinding(node.number(), node.op().value(), node.out().value(), node.pos().toString(),
                r.status(), named, r.message());
    }
}
