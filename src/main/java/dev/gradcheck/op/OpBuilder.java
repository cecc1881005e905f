package dev.gradcheck.op;

import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.plugin.OpResolver;
import dev.gradcheck.op.plugin.PluginOperator;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import java.util.Map;
import java.util.Optional;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Turns a spec's {@code op} name into a function: a plugin op when one of that name was loaded, otherwise an
 * ND4J op ({@link Nd4jOpBuilder}). What can be known without running is {@link OpResolver}'s, in op/plugin, where
 * the front end asks it without loading this class. ND4J is started only when something must run: {@link #validate}
 * starts it only for a graph spec, whose problems only a run can show.
 */
public final class OpBuilder {

    private final OpResolver resolver;
    private final OpCatalog catalog;
    private final PluginSet plugins;
    private final MemoryBudget budget;
    private Nd4jOpBuilder nd4j;

    /** @param budget what an ND4J op's build may allocate (see {@link Nd4jOpBuilder}) */
    public OpBuilder(OpCatalog catalog, PluginSet plugins, MemoryBudget budget) {
        this.resolver = new OpResolver(catalog, plugins);
        this.catalog = catalog;
        this.plugins = plugins;
        this.budget = budget;
    }

    /**
     * {@link OpResolver#validateStatic}, then what only a run can tell: a graph spec is built and run once on the
     * values check draws, each node's outputs weighed against {@code budget} before it runs, so that a node whose
     * input shapes do not fit is found. ND4J starts with the first graph spec.
     *
     * @return the lengths of the outputs that were computed (a graph's), by name, to weigh the Jacobians with
     */
    public Map<String, Long> validate(OpSpec spec, MemoryBudget budget) throws InvalidSpecException {
        resolver.validateStatic(spec, budget);
        return spec.graph() == null ? Map.of() : nd4j().validate(spec, budget);
    }

    /** A layer spec's type is found among gradcheck's classes or in the plugin paths (a user's own DL4J layer). */
    public Differentiable build(OpSpec spec, Map<String, INDArray> inputs) throws InvalidSpecException {
        if (spec.layer() != null) {
            return LayerSpecs.build(spec, inputs, plugins.classLoader());
        }
        Optional<PluginOperator> plugin = plugins.find(spec.op().value());
        return plugin.isPresent() ? OperatorFunction.bind(plugin.get(), spec) : nd4j().build(spec, inputs);
    }

    private synchronized Nd4jOpBuilder nd4j() {
        if (nd4j == null) {
            nd4j = new Nd4jOpBuilder(catalog, budget);
        }
        return nd4j;
    }
}
