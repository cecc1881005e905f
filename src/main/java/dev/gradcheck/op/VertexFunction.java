package dev.gradcheck.op;

import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.graph.GraphVertex;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.nd4j.common.primitives.Pair;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A ComputationGraph's non-layer vertex (MergeVertex, ElementWiseVertex, SubsetVertex, ...) as a function of the
 * inputs it is fed: the forward is the vertex's {@code doForward}, the backward its hand-written
 * {@code doBackward}, handed the cotangent as the epsilon a graph would hand it. The vertex lives in a graph of
 * its own (the spec's inputs its inputs, the vertex its output), as some vertices read the graph: the time series
 * DuplicateToTimeSeriesVertex copies to, the masks LastTimeStepVertex and ReverseTimeSeriesVertex take.
 */
final class VertexFunction implements Differentiable {

    static final String OUTPUT = LayerFunction.OUTPUT;
    /** The vertex's name in its graph. */
    private static final String NAME = "vertex";
    /** The option naming a graph input a vertex reads by name, not one it is fed (DuplicateToTimeSeriesVertex). */
    static final String READ_BY_NAME = "inputName";

    private final OpSpec spec;
    private final Map<String, INDArray> builtOn;
    private final ClassLoader loader;
    private final ComputationGraph graph;
    private final org.deeplearning4j.nn.graph.vertex.GraphVertex vertex;
    /** The spec's inputs the vertex is fed, in the order written. */
    private final List<String> fed;
    /** Every input of the graph: the fed ones, then one read by name. */
    private final List<String> graphInputs;
    /** The vertex's parameters, each an input of the spec ({@link VertexParams}). */
    private final List<String> params;
    private final LayerWorkspaceMgr workspaces = LayerWorkspaceMgr.noWorkspaces();

    private VertexFunction(OpSpec spec, Map<String, INDArray> builtOn, ClassLoader loader, ComputationGraph graph,
                           Wiring wiring) {
        this.spec = spec;
        this.builtOn = builtOn;
        this.loader = loader;
        this.graph = graph;
        this.vertex = graph.getVertex(NAME);
        this.fed = wiring.fed();
        this.graphInputs = wiring.graphInputs();
        this.params = wiring.params();
    }

    /**
     * How the spec's inputs reach the vertex.
     *
     * @param fed         fed to it, in the order written
     * @param graphInputs its graph's inputs: the fed ones, then one read by name
     * @param params      its parameters
     */
    record Wiring(List<String> fed, List<String> graphInputs, List<String> params) {

        static Wiring of(OpSpec spec, List<String> fixed, List<String> params) {
            List<String> fed = spec.inputs().stream().map(InputSpec::name)
                    .filter(n -> !fixed.contains(n) && !params.contains(n)).toList();
            List<String> graphInputs = new ArrayList<>(fed);
            fixed.stream().filter(n -> !n.equals(LayerSpecs.MASK)).forEach(graphInputs::add);
            return new Wiring(fed, graphInputs, params);
        }
    }

    /**
     * The spec as checked: an input the vertex reads by name and a mask are never checked (no_grad), as a layer's
     * labels and mask are.
     */
    static OpSpec expand(OpSpec spec, ClassLoader loader) throws InvalidSpecException {
        GraphVertex conf = VertexConfigs.read(spec.layer(), loader);
        return expand(spec, fixed(spec), conf);
    }

    private static OpSpec expand(OpSpec spec, List<String> fixed, GraphVertex conf) throws InvalidSpecException {
        if (!VertexParams.names(conf).isEmpty()) {
            return VertexParams.expand(spec, conf, fixed);
        }
        List<String> check = spec.check().stream().filter(n -> !fixed.contains(n)).toList();
        List<String> noGrad = new ArrayList<>(spec.noGrad());
        fixed.stream().filter(n -> !noGrad.contains(n)).forEach(noGrad::add);
        return spec.withLayerParameters(spec.inputs(), check, noGrad, List.of());
    }

    private static List<String> fixed(OpSpec spec) {
        Object byName = spec.layer().options().containsKey(READ_BY_NAME)
                ? spec.layer().options().get(READ_BY_NAME).value() : null;
        return spec.inputs().stream().map(InputSpec::name)
                .filter(n -> n.equals(LayerSpecs.MASK) || n.equals(byName)).toList();
    }

    /**
     * The vertex of a vertex spec in a graph of its own, run once: what DL4J refuses to build or run is INVALID at
     * the vertex's type with DL4J's reason, unless the spec expects an error.
     */
    static VertexFunction build(OpSpec spec, Map<String, INDArray> inputs, ClassLoader loader)
            throws InvalidSpecException {
        List<String> fixed = fixed(spec);
        GraphVertex conf = VertexConfigs.read(spec.layer(), loader);
        OpSpec expanded = expand(spec, fixed, conf);
        Wiring wiring = Wiring.of(expanded, fixed, VertexParams.names(conf));
        requireInputCount(spec, conf, wiring.fed());
        try {
            ComputationGraph graph = graphOf(spec, conf, wiring, inputs.get(wiring.fed().get(0)).dataType());
            VertexFunction f = new VertexFunction(expanded, inputs, loader, graph, wiring);
            f.forward(inputs);
            return f;
        } catch (RuntimeException e) {
            if (spec.expect().kind() == dev.gradcheck.spec.Expectation.Kind.ERROR) {
                throw e;
            }
            throw new InvalidSpecException(spec.layer().type().pos(), "DL4J refuses " + spec.op().value() + " on"
                    + " inputs " + shapes(inputs, wiring.fed()) + ": " + GraphBuilder.firstLine(e));
        }
    }

    /** The vertex in a graph of its own, its parameters (if any) initialised under the spec's seed. */
    static ComputationGraph graphOf(OpSpec spec, GraphVertex conf, Wiring wiring,
                                    org.nd4j.linalg.api.buffer.DataType dtype) {
        ComputationGraphConfiguration cg = new NeuralNetConfiguration.Builder().seed(spec.seed())
                .dataType(dtype).graphBuilder()
                .addInputs(wiring.graphInputs().toArray(String[]::new))
                .addVertex(NAME, conf, wiring.fed().toArray(String[]::new)).setOutputs(NAME)
                .allowDisconnected(true).build(); // an input read by name feeds no vertex
        ComputationGraph graph = new ComputationGraph(cg);
        graph.init();
        if (!wiring.params().isEmpty()) {
            graph.initGradientsView(); // where a vertex with parameters writes their gradients
        }
        return graph;
    }

    /** The vertex's parameters as DL4J initialised them in its own graph. */
    static Map<String, INDArray> paramsOf(ComputationGraph graph) {
        return graph.getVertex(NAME).paramTable(false);
    }

    /** DL4J's graph builder does not hold a vertex to the inputs it takes (L2Vertex's two): refused here. */
    private static void requireInputCount(OpSpec spec, GraphVertex conf, List<String> fed)
            throws InvalidSpecException {
        int min = conf.minVertexInputs();
        int max = conf.maxVertexInputs() < 0 ? Integer.MAX_VALUE : conf.maxVertexInputs(); // SameDiff's: -1
        if (fed.size() < min || fed.size() > max) {
            String takes = min == max ? String.valueOf(min) : max == Integer.MAX_VALUE ? min + " or more"
                    : min + " to " + max;
            throw new InvalidSpecException(spec.layer().type().pos(), spec.op().value() + " takes " + takes
                    + " input" + (takes.equals("1") ? "" : "s") + "; the spec feeds it " + fed.size() + ": "
                    + String.join(", ", fed));
        }
    }

    private static String shapes(Map<String, INDArray> inputs, List<String> names) {
        return names.stream().map(n -> n + " " + java.util.Arrays.toString(inputs.get(n).shape())).toList()
                .toString();
    }

    @Override
    public List<String> inputNames() {
        return fed;
    }

    @Override
    public List<String> outputNames() {
        return List.of(OUTPUT);
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
        return Map.of(OUTPUT, run(inputs).dup());
    }

    /** The graph's inputs and masks set, the vertex fed copies of its inputs, and its forward. */
    private INDArray run(Map<String, INDArray> inputs) {
        graph.setInputs(graphInputs.stream().map(n -> inputs.get(n).dup()).toArray(INDArray[]::new));
        INDArray mask = inputs.get(LayerSpecs.MASK);
        if (mask != null) { // each graph input's mask, as a graph's setLayerMaskArrays hands it to its vertices
            graph.setLayerMaskArrays(graphInputs.stream().map(n -> mask.dup()).toArray(INDArray[]::new), null);
        }
        vertex.setInputs(fed.stream().map(n -> inputs.get(n).dup()).toArray(INDArray[]::new));
        Map<String, INDArray> table = vertex.paramTable(false);
        params.forEach(p -> table.get(p).assign(inputs.get(p)));
        return vertex.doForward(spec.layer().training(), workspaces);
    }

    /** The forward again (a vertex's backward reads what its forward kept), then the vertex's doBackward. */
    @Override
    public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                     List<String> wrt) {
        run(inputs);
        vertex.setEpsilon(cotangents.get(OUTPUT).dup());
        Pair<Gradient, INDArray[]> back = vertex.doBackward(false, workspaces);
        Map<String, INDArray> grads = new LinkedHashMap<>();
        for (int i = 0; i < fed.size(); i++) {
            if (wrt.contains(fed.get(i)) && back.getSecond()[i] != null) {
                grads.put(fed.get(i), back.getSecond()[i].dup());
            }
        }
        for (String p : params) {
            INDArray g = back.getFirst() == null ? null : back.getFirst().getGradientFor(p);
            if (wrt.contains(p) && g != null) {
                grads.put(p, g.dup());
            }
        }
        return grads;
    }

    @Override
    public Differentiable copy() {
        try {
            return build(spec, builtOn, loader);
        } catch (InvalidSpecException e) {
            throw new IllegalStateException("a vertex built once could not be built again", e);
        }
    }
}
