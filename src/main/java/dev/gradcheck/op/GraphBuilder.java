package dev.gradcheck.op;

import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.GraphNode;
import dev.gradcheck.spec.GraphSpec;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InputValues;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Builds a graph spec into a {@link GraphFunction}: every node as its own one-op function (run once on its
 * inputs, so a node whose shapes do not fit is reported at its position before any numerical work), and, for a
 * graph without clips, the whole graph as one SameDiff graph as well.
 */
final class GraphBuilder {

    private final Nd4jOpBuilder ops;

    GraphBuilder(Nd4jOpBuilder ops) {
        this.ops = ops;
    }

    /**
     * Builds the graph on the values {@code check} draws (the spec's init and seed), in the inputs' dtypes: every
     * op, attribute and shape problem. Not on zeros: an op undefined there (matrix_inverse) would be reported as
     * not accepting inputs that {@code check} builds fine. Weighed against {@code budget} as {@code check} weighs
     * it: the inputs before they are drawn, each node's outputs before the node runs.
     *
     * @return the graph output's length, by name, for the caller to weigh the Jacobians (check/'s business)
     */
    Map<String, Long> validate(OpSpec spec, MemoryBudget budget) throws InvalidSpecException {
        budget.requireInputsFit(spec);
        Map<String, INDArray> values = new LinkedHashMap<>();
        for (InputSpec in : spec.inputs()) {
            values.put(in.name(), Nd4j.createFromArray(InputValues.generate(in, spec.seed())).reshape('c', in.shape())
                    .castTo(Nd4jTypes.of(in.dtype())));
        }
        Built built = buildWeighed(spec, values, GradientClip.BY_VALUE, budget);
        built.function().close();
        return Map.of(spec.graph().output(), built.outputLength());
    }

    GraphFunction build(OpSpec spec, Map<String, INDArray> inputs, GradientClip clip, MemoryBudget budget)
            throws InvalidSpecException {
        return buildWeighed(spec, inputs, clip, budget).function();
    }

    /** A built graph and how many elements its output has. */
    private record Built(GraphFunction function, long outputLength) {}

    private Built buildWeighed(OpSpec spec, Map<String, INDArray> inputs, GradientClip clip, MemoryBudget budget)
            throws InvalidSpecException {
        GraphSpec graph = spec.graph();
        ops.validateOps(spec); // every node's op and attributes at once, so one run shows every such mistake
        List<Differentiable> nodes = new ArrayList<>();
        try {
            Map<String, INDArray> values = new HashMap<>(inputs);
            long held = Nd4jOpBuilder.bytes(inputs.values());
            for (GraphNode node : graph.nodes()) {
                Map<String, INDArray> args = GraphFunction.arguments(node, values);
                Differentiable f = buildNode(node, args);
                nodes.add(f);
                Nd4jOpBuilder.weighOutputs(f, held, budget, node.op().pos(), node.describe()
                        + ": its output (with the graph's values so far)"); // before the node allocates it
                INDArray output = firstOutput(node, f, args);
                values.put(node.out().value(), output);
                held = MemoryBudget.saturatingAdd(held, Nd4jOpBuilder.bytes(List.of(output)));
            }
            Differentiable whole = graph.hasClips() ? null : whole(spec, inputs, values);
            Map<String, INDArray> kept = new LinkedHashMap<>();
            inputs.forEach((name, arr) -> kept.put(name, arr.dup()));
            GraphFunction function = new GraphFunction(graph, List.copyOf(inputs.keySet()), nodes, whole, clip, () -> {
                try {
                    return build(spec, kept, clip, budget);
                } catch (InvalidSpecException e) {
                    throw new IllegalStateException("a graph that built once failed to build again", e);
                }
            });
            return new Built(function, values.get(graph.output()).length());
        } catch (InvalidSpecException | RuntimeException e) {
            nodes.forEach(Differentiable::close);
            throw e;
        }
    }

    /**
     * The node as a one-op function over its arguments. SameDiff checks a node's argument count and dtypes when it
     * creates the node's outputs (add given three inputs, matmul given an int32 one): like a shape that does not
     * fit, that is a mistake in the graph as written, reported at the node.
     */
    private Differentiable buildNode(GraphNode node, Map<String, INDArray> args) throws InvalidSpecException {
        try {
            return ops.buildOp(node.op(), node.attrs(), args, args.keySet(), false);
        } catch (RuntimeException e) {
            throw Nd4jOpBuilder.refusal(node.op(), node.attrs(), e, node.describe() + " cannot be built on its"
                    + " inputs (" + describeArgs(node, args) + ")");
        }
    }

    private static String describeArgs(GraphNode node, Map<String, INDArray> args) {
        List<String> described = new ArrayList<>();
        List<INDArray> arrays = new ArrayList<>(args.values());
        for (int k = 0; k < arrays.size(); k++) {
            INDArray a = arrays.get(k);
            String dtype = Nd4jTypes.toSpec(a.dataType()).map(DType::specName)
                    .orElse(a.dataType().name().toLowerCase(java.util.Locale.ROOT));
            described.add(node.in().get(k).value() + " " + Arrays.toString(a.shape())
                    + (a.dataType() == DataType.DOUBLE ? "" : " " + dtype));
        }
        return String.join(", ", described);
    }

    /**
     * The node's output on its inputs. ND4J checks shapes when it runs a kernel, so running the node once is how
     * a shape mismatch is found; it is reported at the node, as a spec error, not as an operator failure.
     */
    private static INDArray firstOutput(GraphNode node, Differentiable f, Map<String, INDArray> args)
            throws InvalidSpecException {
        try {
            return f.forward(args).get("0");
        } catch (RuntimeException e) {
            throw new InvalidSpecException(node.op().pos(), node.describe() + " does not accept its inputs ("
                    + describeArgs(node, args) + "): " + firstLine(e));
        }
    }

    /**
     * The root cause's first line, without ND4J's pointer to the native output ("Here is the error from c++:"):
     * libnd4j prints its reason there, and a worker adds those words to the message itself ({@code libnd4j: ...},
     * backend's PrintedOutput), for check and validate alike; in one JVM (--in-process) they reach stderr as printed.
     */
    static String firstLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        String line = msg.strip().lines().findFirst().orElse(msg);
        String pointer = " Here is the error from c++:";
        return line.replace(pointer, "").strip();
    }

    /**
     * One SameDiff graph over every node, so that SameDiff's own autodiff (path sums included) is checked.
     * {@code values} are every variable's values from the node-by-node pass, for ops configured from them.
     */
    private Differentiable whole(OpSpec spec, Map<String, INDArray> inputs, Map<String, INDArray> values)
            throws InvalidSpecException {
        SameDiff sd = SameDiff.create();
        Map<String, SDVariable> vars = Nd4jOpBuilder.variables(sd, inputs, spec.check());
        Map<String, SDVariable> byName = new HashMap<>(vars);
        for (GraphNode node : spec.graph().nodes()) {
            SDVariable[] args = node.in().stream().map(in -> byName.get(in.value())).toArray(SDVariable[]::new);
            List<INDArray> arrays = node.in().stream().map(in -> values.get(in.value())).toList();
            byName.put(node.out().value(), ops.addOp(sd, node.op(), node.attrs(), args, arrays).get(0));
        }
        String output = spec.graph().output();
        return ops.evaluated(new SameDiffFunction(sd, vars, List.of(byName.get(output)), List.of(output)));
    }
}
