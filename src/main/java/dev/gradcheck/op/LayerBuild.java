package dev.gradcheck.op;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.LayerSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.api.Layer;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.misc.FrozenLayer;
import org.deeplearning4j.nn.conf.layers.misc.FrozenLayerWithBackprop;
import org.deeplearning4j.nn.conf.layers.samediff.AbstractSameDiffLayer;
import org.deeplearning4j.nn.conf.layers.wrapper.BaseWrapperLayer;
import org.deeplearning4j.nn.conf.layers.samediff.SameDiffLayer;
import org.deeplearning4j.nn.weights.WeightInit;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.NoOp;

/**
 * One DL4J layer made from a layer spec, as a network makes it: the configuration ({@link LayerConfigs}) with
 * nIn taken from the input's shape when the spec leaves it out, DL4J's global defaults filled in (activation,
 * weight init, ...) by {@link NeuralNetConfiguration.Builder}, its parameters initialised by DL4J under the spec's
 * seed. Whatever DL4J refuses on the way is the spec's mistake, INVALID at the layer's type with DL4J's reason.
 *
 * @param layer     the layer, its parameters in one view as a network holds them
 * @param trainable the parameters a network trains (its updater for them is no NoOp), in DL4J's order: the
 *                  others (BatchNormalization's running mean and variance) are state, not differentiated
 */
record LayerBuild(Layer layer, List<String> trainable) {

    static LayerBuild of(LayerSpec spec, INDArray input, long seed, ClassLoader loader) throws InvalidSpecException {
        org.deeplearning4j.nn.conf.layers.Layer config = LayerConfigs.read(spec, loader);
        refuseRandomness(spec, config);
        DataType dtype = input.dataType();
        try {
            InputType inputType = InputType.inferInputType(input);
            if (!spec.options().keySet().stream().anyMatch(k -> k.equalsIgnoreCase("nIn"))) {
                config.setNIn(inputType, false);
            }
            NeuralNetConfiguration.Builder global = new NeuralNetConfiguration.Builder().seed(seed).dataType(dtype);
            if (config instanceof AbstractSameDiffLayer sameDiffLayer) {
                sameDiffLayer.applyGlobalConfig(global); // as a network's list does: updater, regularization
            }
            if (config instanceof SameDiffLayer sameDiffLayer && sameDiffLayer.getWeightInit() == null) {
                // its Builder's default; a configuration made by the constructor (a builder that refuses its own
                // defaults, as LearnedSelfAttentionLayer's does) has none, and DL4J's init then fails
                sameDiffLayer.setWeightInit(WeightInit.XAVIER);
            }
            NeuralNetConfiguration conf = global.layer(config).build();
            // as a network's list does, once the global defaults are in: LocallyConnected sets its sizes here
            conf.getLayer().getOutputType(0, inputType);
            long n = conf.getLayer().initializer().numParams(conf);
            // rank 1, as a network holds them in M2.1: Bidirectional splits the view by one index
            INDArray params = n == 0 ? null : Nd4j.create(dtype, n);
            Nd4j.getRandom().setSeed(seed);
            Layer layer = conf.getLayer().instantiate(conf, List.of(), 0, params, true, dtype);
            if (n > 0) {
                layer.setBackpropGradientsViewArray(Nd4j.create(dtype, n));
            }
            List<String> trainable = layer.paramTable().keySet().stream()
                    .filter(p -> trained(conf.getLayer(), p)).toList();
            return new LayerBuild(layer, trainable);
        } catch (RuntimeException e) {
            throw new InvalidSpecException(spec.type().pos(), "DL4J refuses " + spec.type().value() + " on an input"
                    + " of shape " + java.util.Arrays.toString(input.shape()) + ": " + GraphBuilder.firstLine(e));
        }
    }

    /**
     * Dropout draws a new mask each forward pass (in training) and weight noise new noise: a finite difference
     * of two forwards would compare two different functions. Refused, so no verdict is made of noise.
     */
    private static void refuseRandomness(LayerSpec spec, org.deeplearning4j.nn.conf.layers.Layer config)
            throws InvalidSpecException {
        if (config.getIDropout() != null && spec.training()) {
            throw new InvalidSpecException(spec.type().pos(), spec.type().value() + " has dropout, which draws a"
                    + " new mask at every forward pass in training: its finite differences would compare two"
                    + " different functions; leave dropout out, or check it with training: false");
        }
        if (config instanceof org.deeplearning4j.nn.conf.layers.BaseLayer base && base.getWeightNoise() != null) {
            throw new InvalidSpecException(spec.type().pos(), spec.type().value() + " has weight noise, which"
                    + " draws new noise at every forward pass: leave weightNoise out to check the layer");
        }
    }

    /**
     * Whether a network trains the parameter (its updater is no NoOp; a frozen layer's none). A wrapper that does
     * not say (LastTimeStep, TimeDistributed: DL4J's base wrapper throws) has its wrapped layer's parameters.
     */
    static boolean trained(org.deeplearning4j.nn.conf.layers.Layer config, String param) {
        if (config instanceof FrozenLayerWithBackprop || config instanceof FrozenLayer) {
            return false; // frozen: its backward passes the input's gradient on and gives its parameters none
        }
        org.deeplearning4j.nn.conf.layers.Layer layer = config;
        while (layer instanceof BaseWrapperLayer wrapper) {
            layer = wrapper.getUnderlying();
        }
        return !(layer.getUpdaterByParam(param) instanceof NoOp);
    }

    /** Whether the layer's backward starts from its own loss against labels, not from an epsilon. */
    boolean isOutputLayer() {
        return layer instanceof org.deeplearning4j.nn.api.layers.IOutputLayer;
    }

    /** The layer's parameters now, by name, copied. */
    Map<String, INDArray> params() {
        Map<String, INDArray> copies = new LinkedHashMap<>();
        layer.paramTable().forEach((name, value) -> copies.put(name, value.dup('c')));
        return copies;
    }
}
