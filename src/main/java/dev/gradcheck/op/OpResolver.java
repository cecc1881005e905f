package dev.gradcheck.op;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.util.Map;
import java.util.Optional;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Turns a spec's {@code op} name into a function: a plugin op when one of that name was loaded, otherwise an
 * ND4J op. Plugin names never shadow ND4J's ({@link PluginSet#rejectClashes}), so the order does not matter.
 */
public final class OpResolver {

    private final Nd4jOpBuilder nd4j;
    private final PluginSet plugins;

    public OpResolver(OpCatalog catalog, PluginSet plugins) {
        this.nd4j = new Nd4jOpBuilder(catalog);
        this.plugins = plugins;
    }

    /** Checks that the op exists and takes the spec's inputs and attributes, without building anything. */
    public void validate(OpSpec spec) throws InvalidSpecException {
        Optional<PluginOperator> plugin = plugins.find(spec.op().value());
        if (plugin.isPresent()) {
            OperatorFunction.validate(plugin.get(), spec);
        } else {
            nd4j.validate(spec);
        }
    }

    public Differentiable build(OpSpec spec, Map<String, INDArray> inputs) throws InvalidSpecException {
        Optional<PluginOperator> plugin = plugins.find(spec.op().value());
        return plugin.isPresent() ? OperatorFunction.bind(plugin.get(), spec) : nd4j.build(spec, inputs);
    }
}
