package dev.gradcheck.op;

import dev.gradcheck.result.Status;
import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.Init;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.LayerSpec;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.api.layers.IOutputLayer;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A saved DL4J network as one layer spec per layer: one forward pass of the network on the spec's input records
 * each layer's real input (after its preprocessor), and each layer's spec holds that input and the network's own
 * parameter values as {@code init: values}, its configuration as options. Checking each spec checks that layer's
 * backward at the size and activations it really sees.
 */
public final class NetworkLayers {

    /**
     * One layer of the network, or one of a ComputationGraph's vertices that is no layer.
     *
     * @param index   a layer's index in the network, as DL4J's {@code getLayer(index)}; a vertex's index in the
     *                graph, as {@code getVertices()[index]}
     * @param name    its name (DL4J's layerName, or its index when it has none; a graph's vertex name)
     * @param type    its configuration's simple class name
     * @param spec    the layer (or vertex) spec that checks it; null when it is skipped
     * @param vertex  whether it is a graph's vertex that is no layer
     * @param skipped why it is not checked (a layer with no backward to check), or null
     */
    public record Layer(int index, String name, String type, OpSpec spec, boolean vertex, String skipped) {

        Layer(int index, String name, String type, OpSpec spec) {
            this(index, name, type, spec, false, null);
        }

        /** "layer 1 (conv1, ConvolutionLayer)", "vertex 4 (merge, MergeVertex)": how reports name it. */
        public String describe() {
            return (vertex ? "vertex " : "layer ") + index + " (" + name + ", " + type + ")";
        }
    }

    /** Why a FrozenLayer is not checked: DL4J's backward of it is, by design, no gradient at all. */
    static final String FROZEN = "DL4J's FrozenLayer passes no gradient back by design (its"
            + " backpropGradient returns no epsilon and no parameter gradients: the layers under it are frozen too);"
            + " FrozenLayerWithBackprop is the frozen layer that passes one on, and is checked";

    private NetworkLayers() {}

    /**
     * The network's layers at their activations (a ComputationGraph's layers and other vertices: {@link
     * GraphLayers}). An output layer is among them when the spec gives its labels (input {@code labels}); a network
     * DL4J cannot load or run on the input is INVALID at {@code network:}.
     *
     * @param classes where the classes its configuration names are found: gradcheck's, or the plugin paths' too (a
     *                user's own layer)
     */
    public static List<Layer> of(OpSpec spec, ClassLoader classes) throws InvalidSpecException {
        requireNoSelection(spec);
        org.deeplearning4j.nn.api.Model model = SavedNetworks.load(spec, classes);
        if (model instanceof org.deeplearning4j.nn.graph.ComputationGraph graph) {
            return GraphLayers.of(spec, graph);
        }
        MultiLayerNetwork net = (MultiLayerNetwork) model;
        InputSpec in = NetworkMasks.networkInput(spec);
        INDArray x = NetworkMasks.drawn(in, spec);
        NetworkMasks masks = NetworkMasks.of(spec, List.of(in.name()));
        List<INDArray> activations;
        List<INDArray> seen;
        try {
            masks.setOn(net);
            seen = masksSeen(net.getLayers());
            activations = net.feedForward(x, spec.layer().training());
        } catch (RuntimeException e) {
            throw new InvalidSpecException(spec.network().pos(), "DL4J's network rejects an input of shape "
                    + java.util.Arrays.toString(in.shape()) + masks.described() + ": " + GraphBuilder.firstLine(e));
        }
        List<Layer> layers = new ArrayList<>();
        for (int i = 0; i < net.getnLayers(); i++) {
            org.deeplearning4j.nn.api.Layer layer = net.getLayer(i);
            boolean output = layer instanceof IOutputLayer;
            if (output && spec.inputs().stream().noneMatch(s -> s.name().equals(LayerSpecs.LABELS))) {
                continue; // its backward starts from labels the spec did not give
            }
            INDArray input = activations.get(i);
            InputPreProcessor pre = net.getLayerWiseConfigurations().getInputPreProcess(i);
            if (pre != null) {
                input = pre.preProcess(input.dup(), (int) input.size(0), LayerWorkspaceMgr.noWorkspaces());
            }
            layers.add(layerOf(spec, i, layer, new Seen(input, seen.get(i)), output));
        }
        return layers;
    }

    /**
     * A DL4J network's layers are each checked for their input and every trained parameter, and its whole score
     * for every parameter array: a {@code check} or {@code no_grad} would be ignored, so it is refused.
     */
    private static void requireNoSelection(OpSpec spec) throws InvalidSpecException {
        var named = spec.layer().params();
        boolean given = named.check() != null || !named.noGrad().isEmpty() || !spec.noGrad().isEmpty();
        if (given) {
            List<Located<String>> names = new ArrayList<>(named.noGrad());
            if (named.check() != null) {
                names.addAll(named.check());
            }
            throw new InvalidSpecException(names.isEmpty() ? spec.pos() : names.get(0).pos(), "check and no_grad"
                    + " do not apply to a DL4J network: each layer is checked for its input and every parameter it"
                    + " trains, and in fast mode the whole score for every parameter array; leave them out");
        }
    }

    /**
     * What a layer saw in the network's forward pass.
     *
     * @param input its input activations, after its preprocessor
     * @param mask  the mask DL4J handed it (after the preprocessors and layers before it), or null
     */
    record Seen(INDArray input, INDArray mask) {}

    /** The mask each layer holds once the network's masks are set, before a pass clears them. */
    static List<INDArray> masksSeen(org.deeplearning4j.nn.api.Layer[] layers) {
        List<INDArray> masks = new ArrayList<>();
        for (org.deeplearning4j.nn.api.Layer layer : layers) {
            masks.add(layer.getMaskArray() == null ? null : layer.getMaskArray().dup());
        }
        return masks;
    }

    /** The layer spec of one layer of a network, at its input, with the network's parameter values. */
    static Layer layerOf(OpSpec spec, int index, org.deeplearning4j.nn.api.Layer layer, Seen seen,
                                 boolean output) throws InvalidSpecException {
        INDArray input = seen.input();
        // DL4J's frozen layers answer conf() with the layer they wrap: told apart by the layer itself
        org.deeplearning4j.nn.conf.layers.Layer config = layer.conf().getLayer();
        String type = config.getClass().getSimpleName();
        String name = config.getLayerName() != null ? config.getLayerName() : String.valueOf(index);
        if (layer instanceof org.deeplearning4j.nn.layers.FrozenLayer) {
            return new Layer(index, name, "FrozenLayer", null, false, FROZEN);
        }
        boolean frozen = layer instanceof org.deeplearning4j.nn.layers.FrozenLayerWithBackprop;
        Located<String> typeAt = new Located<>(config.getClass().getName(), spec.network().pos());
        Map<String, Located<Object>> options = new LinkedHashMap<>();
        LayerConfigs.optionsOf(config).forEach((k, v) -> options.put(k, new Located<>(v, spec.network().pos())));
        DType dtype = Nd4jTypes.specType(input.dataType());
        List<InputSpec> inputs = new ArrayList<>();
        inputs.add(values("x", input, dtype, spec));
        if (output) {
            inputs.add(spec.input(LayerSpecs.LABELS));
        }
        if (seen.mask() != null) { // set on the layer for its forward and backward, never checked
            inputs.add(values(LayerSpecs.MASK, seen.mask(), dtype, spec));
        }
        List<String> check = new ArrayList<>(List.of("x"));
        List<String> untrained = new ArrayList<>(); // a frozen layer's: its values given, never checked
        for (Map.Entry<String, INDArray> p : layer.paramTable().entrySet()) {
            if (LayerBuild.trained(config, p.getKey())) {
                inputs.add(values(p.getKey(), p.getValue(), dtype, spec));
                (frozen ? untrained : check).add(p.getKey());
            }
        }
        OpSpec one = partSpec(spec, index + ":" + name, type, typeAt, options, new Checked(inputs, check,
                output ? List.of(LayerSpecs.LABELS) : List.of(), untrained));
        return new Layer(index, name, frozen ? "FrozenLayerWithBackprop" : type, one);
    }

    /**
     * A part's inputs, the ones checked, the ones never checked, and its parameters that are not trained (a frozen
     * layer's).
     */
    record Checked(List<InputSpec> inputs, List<String> check, List<String> noGrad, List<String> untrained) {}

    /**
     * The spec of one part of a network spec (a layer, a graph's vertex): its type and options at {@code network:},
     * the network spec's checking settings, named {@code network/part}.
     */
    static OpSpec partSpec(OpSpec spec, String part, String type, Located<String> typeAt,
                           Map<String, Located<Object>> options, Checked checked) {
        LayerSpec.Selection frozen = new LayerSpec.Selection(null, checked.untrained().stream()
                .map(p -> new Located<>(p, spec.network().pos())).toList());
        LayerSpec layerSpec = new LayerSpec(typeAt, options, spec.layer().training(), frozen, List.of());
        return new OpSpec(spec.name() + "/" + part, spec.pos(), new Located<>(type, spec.network().pos()),
                Map.of(), checked.inputs(), List.of(), checked.check(), checked.noGrad(), spec.delta(),
                spec.tolerance(), spec.mode(), spec.order(), spec.options(), spec.backends(), spec.seed(),
                Expectation.PASS, null, spec.timeoutSeconds(), layerSpec, null);
    }

    static InputSpec values(String name, INDArray a, DType dtype, OpSpec spec) {
        return new InputSpec(name, a.shape(), dtype, new Init.Values(a.dup('c').castTo(
                org.nd4j.linalg.api.buffer.DataType.DOUBLE).data().asDouble()), spec.network().pos());
    }

    /**
     * A network's status from its layers' statuses: the first that needs attention, else passed. A part skipped
     * (with its reason in its finding) needs none.
     */
    public static Status status(List<Status> layers) {
        return layers.stream().filter(s -> s != Status.PASSED && s != Status.SKIPPED).findFirst()
                .orElse(Status.PASSED);
    }
}
