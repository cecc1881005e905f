package dev.gradcheck.op;

import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.graph.vertex.GraphVertex;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A ComputationGraph's vertex that is no layer (MergeVertex, ElementWiseVertex, a user's own, ...) as a vertex spec
 * ({@link VertexFunction}) at the activations the graph's forward pass fed it: each of its inputs an input of the
 * spec, named after the vertex that feeds it, and every one checked; its configuration's JSON fields its options.
 * What a vertex reads from the graph instead of being fed is given as the graph gave it: the graph input
 * DuplicateToTimeSeriesVertex names ({@code inputName}), and the mask of the graph input LastTimeStepVertex and
 * ReverseTimeSeriesVertex name ({@code maskArrayInputName}), which the vertex's own graph sets on its inputs.
 */
final class GraphVertices {

    /** The option naming the graph input whose mask a vertex reads (LastTimeStepVertex, ReverseTimeSeriesVertex). */
    static final String MASK_OF = "maskArrayInputName";

    private GraphVertices() {}

    /**
     * What the graph's forward pass recorded.
     *
     * @param conf        the graph's configuration (who feeds whom)
     * @param activations every vertex's activation, by vertex name
     * @param inputs      the graph's inputs, by name
     * @param masks       the masks set on the graph's inputs
     */
    record Recorded(ComputationGraphConfiguration conf, Map<String, INDArray> activations,
                    Map<String, INDArray> inputs, NetworkMasks masks) {

        /** What the vertex (or graph input) {@code from} handed on. */
        static INDArray activation(String from, Map<String, INDArray> activations, Map<String, INDArray> inputs) {
            return activations.containsKey(from) ? activations.get(from) : inputs.get(from);
        }

        INDArray activation(String from) {
            return activation(from, activations, inputs);
        }

        /** The mask set on the graph input {@code name}, or null. */
        INDArray maskOf(String name) {
            int i = conf.getNetworkInputs().indexOf(name);
            return i < 0 ? null : masks.features()[i];
        }
    }

    /** The vertex spec of one vertex of the graph, at what its inputs handed it in the forward pass. */
    static NetworkLayers.Layer of(OpSpec spec, GraphVertex vertex, Recorded recorded) throws InvalidSpecException {
        String name = vertex.getVertexName();
        org.deeplearning4j.nn.conf.graph.GraphVertex config = recorded.conf().getVertices().get(name);
        String type = config.getClass().getSimpleName();
        Map<String, Object> options = new LinkedHashMap<>(VertexConfigs.optionsOf(config, spec.network().pos()));
        List<String> from = recorded.conf().getVertexInputs().get(name);
        DType dtype = Nd4jTypes.specType(recorded.activation(from.get(0)).dataType());
        Object byName = options.get(VertexFunction.READ_BY_NAME);
        Set<String> taken = new HashSet<>(List.of(LayerSpecs.MASK, LayerSpecs.LABELS, String.valueOf(byName)));
        List<InputSpec> inputs = new ArrayList<>();
        List<String> fed = new ArrayList<>();
        for (String f : from) {
            String n = unique(f, taken);
            fed.add(n);
            inputs.add(NetworkLayers.values(n, recorded.activation(f), dtype, spec));
        }
        if (byName instanceof String series && recorded.inputs().containsKey(series)) {
            inputs.add(NetworkLayers.values(series, recorded.inputs().get(series), dtype, spec));
        }
        if (options.get(MASK_OF) instanceof String masked) {
            // its own graph's inputs are the fed ones, each under the mask the named graph input had
            options.put(MASK_OF, fed.get(0));
            INDArray mask = recorded.maskOf(masked);
            if (mask != null) {
                inputs.add(NetworkLayers.values(LayerSpecs.MASK, mask, dtype, spec));
            }
        }
        List<String> check = new ArrayList<>(fed);
        for (String p : VertexParams.names(config)) { // the network's own values, trained unless frozen
            inputs.add(NetworkLayers.values(p, vertex.paramTable(false).get(p), dtype, spec));
            if (!(config instanceof org.deeplearning4j.nn.conf.graph.FrozenVertex)) {
                check.add(p);
            }
        }
        Map<String, Located<Object>> located = new LinkedHashMap<>();
        options.forEach((k, v) -> located.put(k, new Located<>(v, spec.network().pos())));
        Located<String> typeAt = new Located<>(config.getClass().getName(), spec.network().pos());
        OpSpec one = NetworkLayers.partSpec(spec, vertex.getVertexIndex() + ":" + name, type, typeAt, located,
                new NetworkLayers.Checked(inputs, check, List.of(), List.of()));
        return new NetworkLayers.Layer(vertex.getVertexIndex(), name, type, one, true, null);
    }

    /** The vertex's name for what {@code from} feeds it: that vertex's name, unless taken (fed twice, reserved). */
    private static String unique(String from, Set<String> taken) {
        String name = from;
        for (int i = 2; !taken.add(name); i++) {
            name = from + "_" + i;
        }
        return name;
    }
}
