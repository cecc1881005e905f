package dev.gradcheck.op;

import dev.gradcheck.result.Mode;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.Init;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.api.Layer;
import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.NoOp;

/**
 * A whole saved network's score as a function of all its trainable parameters, each parameter array an input by
 * DL4J's own key for it ({@code 0_W} in a MultiLayerNetwork, {@code conv1_W} in a ComputationGraph): the forward
 * is the score DL4J's {@code computeGradientAndScore} computes on the spec's input and labels (the loss averaged
 * over the batch, its regularisation term left out: DL4J adds that term's gradient in its updater, not in the
 * backward), the backward the gradient that same call leaves, divided by the batch size as the updater divides it.
 * So every layer's backward is checked together, through the network's own wiring (preprocessors, merges).
 */
public final class NetworkScore implements Differentiable {

    /** The one output. */
    public static final String SCORE = "score";

    private final OpSpec spec;
    private final ClassLoader classes;
    private final Model net;
    private final List<String> keys;
    private final long batch;
    /** Set on the network before every pass (DL4J clears them after one), as its score with masks is computed. */
    private final NetworkMasks masks;

    private NetworkScore(OpSpec spec, ClassLoader classes, Model net, List<String> keys, long batch,
                         NetworkMasks masks) {
        this.spec = spec;
        this.classes = classes;
        this.net = net;
        this.keys = keys;
        this.batch = batch;
        this.masks = masks;
    }

    /**
     * Whether a network spec gets this check: in fast mode (one projection per parameter array; full mode checks
     * each layer entry by entry already), with labels (its score needs them), in training mode (DL4J computes a
     * network's gradient only in a training pass).
     */
    public static boolean applies(OpSpec spec) {
        return spec.mode() == Mode.FAST && spec.layer().training()
                && spec.inputs().stream().anyMatch(i -> i.name().equals(LayerSpecs.LABELS));
    }

    /** The network of a network spec, its input and labels drawn as for its layers' checks, set on it. */
    public static NetworkScore of(OpSpec spec, ClassLoader classes) throws InvalidSpecException {
        Model net = SavedNetworks.load(spec, classes);
        INDArray labels = NetworkMasks.drawn(spec.input(LayerSpecs.LABELS), spec);
        long batch;
        NetworkMasks masks;
        if (net instanceof ComputationGraph graph) {
            List<String> names = graph.getConfiguration().getNetworkInputs();
            Map<String, INDArray> in = GraphLayers.inputs(spec, names);
            graph.setInputs(in.values().toArray(INDArray[]::new));
            graph.setLabels(labels);
            batch = in.values().iterator().next().size(0);
            masks = NetworkMasks.of(spec, names);
        } else {
            MultiLayerNetwork mln = (MultiLayerNetwork) net;
            InputSpec in = NetworkMasks.networkInput(spec);
            INDArray x = NetworkMasks.drawn(in, spec);
            mln.setInput(x);
            mln.setLabels(labels);
            batch = x.size(0);
            masks = NetworkMasks.of(spec, List.of(in.name()));
        }
        return new NetworkScore(spec, classes, net, trainable(net), batch, masks);
    }

    /** DL4J's keys of the parameters a network trains (its updater for them is no NoOp), in its order. */
    private static List<String> trainable(Model net) {
        Layer[] layers = net instanceof ComputationGraph g ? g.getLayers() : ((MultiLayerNetwork) net).getLayers();
        List<String> keys = new ArrayList<>();
        for (Layer layer : layers) {
            var config = layer.conf().getLayer();
            String prefix = net instanceof ComputationGraph ? config.getLayerName() : String.valueOf(layer.getIndex());
            layer.paramTable().keySet().stream().filter(p -> !(config.getUpdaterByParam(p) instanceof NoOp))
                    .forEach(p -> keys.add(prefix + "_" + p));
        }
        return keys;
    }

    /** The spec that checks this function: every parameter array an input, at the network's values. */
    public OpSpec spec() {
        List<InputSpec> inputs = new ArrayList<>();
        for (String key : keys) {
            INDArray p = net.getParam(key);
            inputs.add(new InputSpec(key, p.shape(), Nd4jTypes.specType(p.dataType()), new Init.Values(p.dup('c')
                    .castTo(org.nd4j.linalg.api.buffer.DataType.DOUBLE).data().asDouble()), spec.network().pos()));
        }
        return new OpSpec(spec.name() + "/" + SCORE, spec.pos(), new Located<>("network score",
                spec.network().pos()), Map.of(), inputs, List.of(), List.copyOf(keys), List.of(), spec.delta(),
                spec.tolerance(), spec.mode(), spec.order(), spec.options(), spec.backends(), spec.seed(),
                Expectation.PASS, null, spec.timeoutSeconds(), null, null);
    }

    @Override
    public List<String> inputNames() {
        return keys;
    }

    @Override
    public List<String> outputNames() {
        return List.of(SCORE);
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
        double score = run(inputs);
        return Map.of(SCORE, Nd4j.scalar(net.getParam(keys.get(0)).dataType(), score).reshape(1));
    }

    @Override
    public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                     List<String> wrt) {
        run(inputs);
        double scale = cotangents.get(SCORE).getDouble(0) / batch;
        Map<String, INDArray> grads = new LinkedHashMap<>();
        for (String key : wrt) {
            INDArray g = net.gradient().getGradientFor(key);
            if (g != null) {
                grads.put(key, g.mul(scale).reshape(inputs.get(key).shape()));
            }
        }
        return grads;
    }

    /** The parameters given written into the network, one forward and backward pass; its data score. */
    private double run(Map<String, INDArray> inputs) {
        for (String key : keys) {
            INDArray value = inputs.get(key);
            if (value != null) {
                net.getParam(key).assign(value);
            }
        }
        masks.setOn(net);
        if (net instanceof ComputationGraph graph) {
            graph.computeGradientAndScore();
            return graph.score() - graph.calcRegularizationScore(true);
        }
        MultiLayerNetwork mln = (MultiLayerNetwork) net;
        mln.computeGradientAndScore();
        return mln.score() - mln.calcRegularizationScore(true);
    }

    @Override
    public Differentiable copy() {
        try {
            return of(spec, classes);
        } catch (InvalidSpecException e) {
            throw new IllegalStateException("a network loaded once could not be loaded again", e);
        }
    }
}
