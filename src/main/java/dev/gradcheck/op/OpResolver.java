package dev.gradcheck.op;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
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
        this(catalog, plugins, MemoryBudget.UNLIMITED);
    }

    /** @param budget what an ND4J op's build may allocate (see {@link Nd4jOpBuilder}) */
    public OpResolver(OpCatalog catalog, PluginSet plugins, MemoryBudget budget) {
        this.nd4j = new Nd4jOpBuilder(catalog, budget);
        this.plugins = plugins;
    }

    /**
     * Checks that the op exists and takes the spec's inputs and attributes, and that the spec fits {@code budget}
     * as {@code check} would weigh it: its inputs for every spec, and for a graph (which is built and run once on
     * the values check draws) each node's outputs.
     *
     * @return the lengths of the outputs that were computed (a graph's), by name, to weigh the Jacobians with
     */
    public Map<String, Long> validate(OpSpec spec, MemoryBudget budget) throws InvalidSpecException {
        budget.requireInputsFit(spec);
        Optional<PluginOperator> plugin = plugins.find(spec.op().value());
        if (plugin.isPresent()) {
            OperatorFunction.validate(plugin.get(), spec);
            return Map.of();
        }
        return nd4j.validate(spec, budget);
    }

    public Differentiable build(OpSpec spec, Map<String, INDArray> inputs) throws InvalidSpecException {
        Optional<PluginOperator> plugin = plugins.find(spec.op().value());
        return plugin.isPresent() ? OperatorFunction.bind(plugin.get(), spec) : nd4j.build(spec, inputs);
    }
}
