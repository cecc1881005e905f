package dev.gradcheck.op;

import dev.gradcheck.spec.ErrorClip;
import dev.gradcheck.spec.GraphNode;
import dev.gradcheck.spec.GraphSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A graph spec as a {@link Differentiable} with one output, the graph's {@code output} variable.
 *
 * <p>Without clips, forward and backward are one SameDiff graph ({@code whole}): what is checked is then
 * SameDiff's own autodiff, including how it sums the gradients of a variable used along several paths. With clips
 * SameDiff cannot clip a gradient in the middle of its backward, so the backward is reverse mode over the nodes:
 * each node's vector-Jacobian product comes from its own one-op build, the gradients of a variable used several
 * times are summed, and a clipped variable's summed gradient is clipped before it flows into its producer (for an
 * input: before it is returned).
 *
 * <p>The nodes' one-op builds also serve the checker: {@link #values} gives every variable's value, from which
 * each node can be checked on its own.
 */
public final class GraphFunction implements Differentiable, ClippedGraph, NodeCapture {

    private final GraphSpec graph;
    private final List<String> inputNames;
    private final List<Differentiable> nodes;
    private final Differentiable whole;
    private final GradientClip clip;
    private final java.util.function.Supplier<GraphFunction> rebuild;

    GraphFunction(GraphSpec graph, List<String> inputNames, List<Differentiable> nodes, Differentiable whole,
                  GradientClip clip, java.util.function.Supplier<GraphFunction> rebuild) {
        this.graph = graph;
        this.inputNames = inputNames;
        this.nodes = nodes;
        this.whole = whole;
        this.clip = clip;
        this.rebuild = rebuild;
    }

    /** Every function this graph evaluates: its nodes' one-op builds, then the whole graph's where there is one. */
    List<Differentiable> parts() {
        List<Differentiable> parts = new ArrayList<>(nodes);
        if (whole != null) {
            parts.add(whole);
        }
        return parts;
    }

    /** The same graph built again: its nodes and whole-graph function included, nothing shared. */
    @Override
    public GraphFunction copy() {
        return rebuild.get();
    }

    @Override
    public GraphSpec graph() {
        return graph;
    }

    /** Each node's attributes left at their defaults, as {@code "h1: alpha"} (the node by the variable it defines). */
    @Override
    public List<String> attributesLeftAtDefault() {
        List<String> names = new ArrayList<>();
        for (int k = 0; k < nodes.size(); k++) {
            String out = graph.nodes().get(k).out().value();
            nodes.get(k).attributesLeftAtDefault().forEach(a -> names.add(out + ": " + a));
        }
        return names;
    }

    /** Only a graph with clips needs its reference split at them. */
    @Override
    public Optional<ClippedGraph> clippedGraph() {
        return graph.hasClips() ? Optional.of(this) : Optional.empty();
    }

    @Override
    public Optional<NodeCapture> nodeCapture() {
        return Optional.of(this);
    }

    @Override
    public List<CapturedNode> captureNodes(Map<String, INDArray> inputs) {
        Map<String, INDArray> values = values(inputs);
        return graph.nodes().stream().map(node -> new CapturedNode(node, nodeInputs(node, values))).toList();
    }

    /** A node's arguments by position ("a0", "a1", ...): one variable may be passed twice. */
    static Map<String, INDArray> arguments(GraphNode node, Map<String, INDArray> values) {
        Map<String, INDArray> args = new LinkedHashMap<>();
        for (int k = 0; k < node.in().size(); k++) {
            args.put("a" + k, values.get(node.in().get(k).value()));
        }
        return args;
    }

    /** The arrays a node reads, in its argument order, out of {@link #values}. */
    private static List<INDArray> nodeInputs(GraphNode node, Map<String, INDArray> values) {
        return new ArrayList<>(arguments(node, values).values());
    }

    @Override
    public List<String> inputNames() {
        return inputNames;
    }

    @Override
    public List<String> outputNames() {
        return List.of(graph.output());
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
        if (whole != null) {
            return whole.forward(inputs);
        }
        return Map.of(graph.output(), values(inputs).get(graph.output()));
    }

    /** The whole graph's own arrays where it is one function; a node by node forward makes new ones anyway. */
    @Override
    public Map<String, INDArray> forwardTransient(Map<String, INDArray> inputs) {
        return whole != null ? whole.forwardTransient(inputs) : forward(inputs);
    }

    @Override
    public Map<String, INDArray> vjpTransient(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                              List<String> wrt) {
        return whole != null ? whole.vjpTransient(inputs, cotangents, wrt) : vjp(inputs, cotangents, wrt);
    }

    @Override
    public Map<String, INDArray> values(Map<String, INDArray> inputs) {
        return valuesHolding(inputs, Map.of());
    }

    @Override
    public Map<String, INDArray> valuesHolding(Map<String, INDArray> inputs, Map<String, INDArray> held) {
        Map<String, INDArray> fed = new HashMap<>(inputs);
        Map<String, INDArray> computed = new HashMap<>(inputs);
        for (int i = 0; i < nodes.size(); i++) {
            GraphNode node = graph.nodes().get(i);
            INDArray y = nodes.get(i).forward(arguments(node, fed)).get("0");
            computed.put(node.out().value(), y);
            fed.put(node.out().value(), held.getOrDefault(node.out().value(), y));
        }
        return computed;
    }

    @Override
    public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents, List<String> wrt) {
        if (whole != null) {
            return whole.vjp(inputs, cotangents, wrt);
        }
        Map<String, INDArray> values = values(inputs);
        Map<String, INDArray> grads = new HashMap<>();
        grads.put(graph.output(), cotangents.get(graph.output()));
        for (int i = nodes.size() - 1; i >= 0; i--) {
            GraphNode node = graph.nodes().get(i);
            INDArray g = grads.get(node.out().value());
            if (g == null) {
                continue;
            }
            if (node.errorClip() != null) {
                g = clip.apply(g, node.errorClip());
            }
            Map<String, INDArray> args = arguments(node, values);
            List<String> floating = args.keySet().stream().filter(a -> args.get(a).dataType().isFPType()).toList();
            Map<String, INDArray> argGrads = nodes.get(i).vjp(args, Map.of("0", g), floating);
            for (int k = 0; k < node.in().size(); k++) {
                INDArray ga = argGrads.get("a" + k);
                if (ga != null) {
                    grads.merge(node.in().get(k).value(), ga, INDArray::add);
                }
            }
        }
        Map<String, INDArray> out = new HashMap<>();
        for (String x : wrt) {
            INDArray g = grads.get(x);
            ErrorClip inputClip = graph.inputClips().get(x);
            if (g != null) {
                out.put(x, inputClip == null ? g : clip.apply(g, inputClip));
            }
        }
        return out;
    }

    /**
     * Without clips, the whole graph's backward as ops SameDiff can differentiate again (order 2). With clips there
     * is none: SameDiff cannot clip a gradient inside a graph, and the backward here is Java code.
     */
    @Override
    public Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
        if (whole == null) {
            throw new UnsupportedOperationException("a graph with error_clip has no second-order backward (its"
                    + " clipped backward runs outside SameDiff)");
        }
        return whole.backwardFunction(wrt, outputs);
    }

    @Override
    public void close() {
        nodes.forEach(Differentiable::close);
        if (whole != null) {
            whole.close();
        }
    }
}
