package dev.gradcheck.spec;

import java.util.List;
import java.util.Map;

/**
 * The {@code layer:} of a spec: a Deeplearning4j layer configuration checked instead of an op (docs/dl4j.md). Only
 * the shape of the values is checked here; what the options mean is DL4J's, read where DL4J is (op/).
 *
 * @param type      the layer's class: a simple name of DL4J's {@code org.deeplearning4j.nn.conf.layers} or a
 *                  fully qualified configuration class (a custom layer's)
 * @param options   the configuration's options as DL4J's builders and JSON name them, in the order written
 * @param training  whether the layer runs in training mode (batch statistics) or inference mode
 * @param params    names in {@code check} or {@code no_grad} that are no input: the layer's parameters (W, b, ...),
 *                  resolved once DL4J has said which it has; {@code check} null when the spec left it out
 * @param parameters the layer's trainable parameters, which are inputs of the spec once DL4J has said which they
 *                  are (op/'s {@code LayerSpecs}); empty until then
 */
public record LayerSpec(Located<String> type, Map<String, Located<Object>> options, boolean training,
                        Selection params, List<String> parameters) {

    /** This layer once its parameters are inputs of the spec. */
    public LayerSpec withParameters(List<String> names) {
        return new LayerSpec(type, options, training, params, List.copyOf(names));
    }

    /**
     * Parameter names a layer spec's {@code check} and {@code no_grad} gave.
     *
     * @param check  the {@code check} list's names that are no input, or null when check was left out (then every
     *               trainable parameter is checked)
     * @param noGrad the {@code no_grad} list's names that are no input
     */
    public record Selection(List<Located<String>> check, List<Located<String>> noGrad) {
        public static final Selection DEFAULT = new Selection(null, List.of());
    }
}
