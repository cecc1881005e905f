package dev.gradcheck.op;

import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.deeplearning4j.nn.api.Layer;
import org.deeplearning4j.nn.api.layers.IOutputLayer;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.conf.graph.LayerVertex;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.graph.vertex.GraphVertex;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A ComputationGraph as one spec per vertex: one forward pass on the spec's inputs records every vertex's
 * activations; each layer vertex is checked as a layer spec at the activation of the vertex that feeds it (after its
 * preprocessor), and each vertex that is no layer (MergeVertex, ElementWiseVertex, a user's own, ...) as a vertex
 * spec at the activations of all the vertices that feed it ({@link GraphVertices}). In the graph's topological
 * order, so that the first wrong one named is the first the data meets.
 */
final class GraphLayers {

    private GraphLayers() {}

    static List<NetworkLayers.Layer> of(OpSpec spec, ComputationGraph graph) throws InvalidSpecException {
        ComputationGraphConfiguration conf = graph.getConfiguration();
        Map<String, INDArray> inputs = inputs(spec, conf.getNetworkInputs());
        NetworkMasks masks = NetworkMasks.of(spec, conf.getNetworkInputs());
        Map<String, INDArray> activations;
        List<INDArray> seen;
        try {
            masks.setOn(graph);
            seen = NetworkLayers.masksSeen(graph.getLayers());
            activations = graph.feedForward(conf.getNetworkInputs().stream().map(inputs::get)
                    .toArray(INDArray[]::new), spec.layer().training());
        } catch (RuntimeException e) {
            throw new InvalidSpecException(spec.network().pos(), "DL4J's graph rejects its inputs"
                    + masks.described() + ": " + GraphBuilder.firstLine(e));
        }
        boolean labels = spec.inputs().stream().anyMatch(s -> s.name().equals(LayerSpecs.LABELS));
        if (labels && graph.getNumOutputArrays() > 1) {
            throw new InvalidSpecException(spec.input(LayerSpecs.LABELS).pos(), "the graph has "
                    + graph.getNumOutputArrays() + " outputs " + conf.getNetworkOutputs() + ": one 'labels' input"
                    + " cannot say whose labels they are; leave labels out to check every other layer");
        }
        GraphVertices.Recorded recorded = new GraphVertices.Recorded(conf, activations, inputs, masks);
        List<Layer> all = List.of(graph.getLayers());
        List<NetworkLayers.Layer> parts = new ArrayList<>();
        for (int v : graph.topologicalSortOrder()) {
            GraphVertex vertex = graph.getVertices()[v];
            if (vertex.isInputVertex()) {
                continue; // the spec's own input: nothing of DL4J's to check
            }
            if (!vertex.hasLayer()) {
                parts.add(GraphVertices.of(spec, vertex, recorded));
                continue;
            }
            int i = indexOf(all, vertex.getLayer());
            Layer layer = all.get(i);
            boolean output = layer instanceof IOutputLayer;
            if (!output || labels) { // an output layer's backward starts from labels
                parts.add(NetworkLayers.layerOf(spec, i, layer, new NetworkLayers.Seen(inputOf(conf, layer,
                        activations, inputs), seen.get(i)), output));
            }
        }
        return parts;
    }

    /** A layer's index in the graph's layers, as {@code getLayer(index)}: found by identity. */
    private static int indexOf(List<Layer> layers, Layer layer) {
        for (int i = 0; i < layers.size(); i++) {
            if (layers.get(i) == layer) {
                return i;
            }
        }
        throw new IllegalStateException("a layer vertex whose layer is not among the graph's layers");
    }

    /** The activation a layer vertex sees: its one input vertex's (or the graph's input), preprocessed. */
    private static INDArray inputOf(ComputationGraphConfiguration conf, Layer layer, Map<String, INDArray> acts,
                                    Map<String, INDArray> inputs) {
        String name = layer.conf().getLayer().getLayerName();
        INDArray input = GraphVertices.Recorded.activation(conf.getVertexInputs().get(name).get(0), acts, inputs);
        InputPreProcessor pre = conf.getVertices().get(name) instanceof LayerVertex v ? v.getPreProcessor() : null;
        return pre == null ? input : pre.preProcess(input.dup(), (int) input.size(0),
                LayerWorkspaceMgr.noWorkspaces());
    }

    /**
     * The graph's inputs drawn from the spec: each by the graph's name for it, or, for a graph of one input, the
     * spec's first (its labels aside).
     */
    static Map<String, INDArray> inputs(OpSpec spec, List<String> names) throws InvalidSpecException {
        Map<String, INDArray> values = new java.util.LinkedHashMap<>();
        for (String name : names) {
            Optional<InputSpec> given = spec.inputs().stream().filter(i -> i.name().equals(name)).findFirst();
            if (given.isEmpty() && names.size() > 1) {
                throw new InvalidSpecException(spec.pos(), "the graph takes the inputs " + names + ": the spec gives"
                        + " none named '" + name + "'");
            }
            InputSpec in = given.isPresent() ? given.get() : NetworkMasks.networkInput(spec);
            values.put(name, NetworkMasks.drawn(in, spec));
        }
        return values;
    }
}
