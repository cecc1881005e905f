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
        validateMaskOutputs(spec, plugin.map(PluginOperator::outputNames).orElse(null));
        if (plugin.isPresent()) {
            OperatorFunction.validate(plugin.get(), spec);
            return Map.of();
        }
        return nd4j.validate(spec, budget);
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
            nd4j.checkShapes(spec);
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
        return plugin.isPresent() ? OperatorFunction.bind(plugin.get(), spec) : nd4j.build(spec, inputs);
    }
}
