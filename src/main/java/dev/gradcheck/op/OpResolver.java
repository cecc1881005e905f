package dev.gradcheck.op;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.JacobianMask;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Turns a spec's {@code op} name into a function: a plugin op when one of that name was loaded, otherwise an
 * ND4J op. Plugin names never shadow ND4J's ({@link PluginSet#rejectClashes}), so the order does not matter.
 * ND4J is started only when something must run: {@link #validateStatic} never starts it, {@link #validate} only
 * for a graph spec, whose problems only a run can show.
 */
public final class OpResolver {

    private final OpCatalog catalog;
    private final PluginSet plugins;
    private final MemoryBudget budget;
    private Nd4jOpBuilder nd4j;

    public OpResolver(OpCatalog catalog, PluginSet plugins) {
        this(catalog, plugins, MemoryBudget.UNLIMITED);
    }

    /** @param budget what an ND4J op's build may allocate (see {@link Nd4jOpBuilder}) */
    public OpResolver(OpCatalog catalog, PluginSet plugins, MemoryBudget budget) {
        this.catalog = catalog;
        this.plugins = plugins;
        this.budget = budget;
    }

    /**
     * Checks the spec against what is known without running anything: its inputs fit {@code budget}, the op exists
     * (in the catalog or among the plugins) and takes the spec's inputs (plugins) and attributes; for a graph, every
     * node's. No ND4J is started.
     */
    public void validateStatic(OpSpec spec, MemoryBudget budget) throws InvalidSpecException {
        budget.requireInputsFit(spec);
        Optional<PluginOperator> plugin = spec.graph() == null ? plugins.find(spec.op().value()) : Optional.empty();
        validateMaskOutputs(spec, plugin.map(PluginOperator::outputNames).orElse(null));
        if (plugin.isPresent()) {
            OperatorFunction.validate(plugin.get(), spec);
        } else {
            new CatalogOps(catalog).validate(spec);
        }
    }

    /**
     * {@link #validateStatic}, then what only a run can tell: a graph spec is built and run once on the values
     * check draws, each node's outputs weighed against {@code budget} before it runs, so that a node whose input
     * shapes do not fit is found. ND4J starts with the first graph spec.
     *
     * @return the lengths of the outputs that were computed (a graph's), by name, to weigh the Jacobians with
     */
    public Map<String, Long> validate(OpSpec spec, MemoryBudget budget) throws InvalidSpecException {
        validateStatic(spec, budget);
        return spec.graph() == null ? Map.of() : nd4j().validate(spec, budget);
    }

    /** Whether {@code validate} asks ND4J about the spec beyond names: an ND4J op, or a graph (run once). */
    public boolean runsOps(OpSpec spec) {
        return plugins.find(spec.op().value()).isEmpty();
    }

    /**
     * The checks of {@code validate} that need ND4J running, for a one-op ND4J spec: built on its values, its
     * shapes and arguments accepted ({@link Nd4jOpBuilder#checkShapes}). Plugin ops have nothing more here; graphs
     * are built and run by {@link #validate}.
     */
    public void checkShapes(OpSpec spec) throws InvalidSpecException {
        if (plugins.find(spec.op().value()).isEmpty()) {
            nd4j().checkShapes(spec);
        }
    }

    /**
     * The output side of each mask entry names an output of the op: a plugin's by name, a graph's by its output
     * variable, an ND4J op's by number or as {@code out} (how many it has is known once it runs).
     *
     * @param pluginOutputs a plugin op's output names, or null for an ND4J op or a graph
     */
    private static void validateMaskOutputs(OpSpec spec, List<String> pluginOutputs) throws InvalidSpecException {
        List<SpecError> errors = new ArrayList<>();
        for (JacobianMask.Rule rule : spec.options().mask().rules()) {
            if (rule.output() == null) {
                continue;
            }
            String name = rule.output().name();
            List<String> outputs = pluginOutputs != null ? pluginOutputs
                    : spec.graph() != null ? List.of(spec.graph().output()) : null;
            boolean known = outputs == null ? name.equals(JacobianMask.NUMBERED_OUTPUTS)
                    || name.chars().allMatch(Character::isDigit) : outputs.contains(name);
            if (!known) {
                errors.add(new SpecError(rule.pos(), "mask '" + rule.text() + "': '" + name + "' is neither an input"
                        + " nor an output of " + (spec.graph() != null ? "the graph" : spec.op().value())
                        + " (outputs: " + (outputs == null ? JacobianMask.NUMBERED_OUTPUTS + ", or 0, 1, ... for one"
                        + " of them" : String.join(", ", outputs)) + ")"));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidSpecException(errors);
        }
    }

    public Differentiable build(OpSpec spec, Map<String, INDArray> inputs) throws InvalidSpecException {
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
