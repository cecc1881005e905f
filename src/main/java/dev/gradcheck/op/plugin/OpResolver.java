package dev.gradcheck.op.plugin;

import dev.gradcheck.op.catalog.CatalogOps;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.JacobianMask;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.NamedOp;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A spec's {@code op} name resolved to what the run knows of it without running anything: a plugin op when one of
 * that name was loaded, otherwise an ND4J op of the build's {@link OpCatalog}. Plugin names never shadow ND4J's
 * ({@link PluginSet#rejectClashes}), so the order does not matter. Touches no ND4J class, so validate (and its
 * {@code --static} mode) checks every spec here before it decides whether anything must run; building the function
 * is {@code op.OpBuilder}'s, on the side that loads ND4J.
 */
public final class OpResolver {

    private final OpCatalog catalog;
    private final PluginSet plugins;

    public OpResolver(OpCatalog catalog, PluginSet plugins) {
        this.catalog = catalog;
        this.plugins = plugins;
    }

    /**
     * Checks the spec against what is known without running anything: its inputs fit {@code budget}, the op exists
     * (in the catalog or among the plugins) and takes the spec's inputs (plugins) and attributes; for a graph, every
     * node's. No ND4J is started.
     */
    public void validateStatic(OpSpec spec, MemoryBudget budget) throws InvalidSpecException {
        budget.requireInputsFit(spec);
        if (spec.layer() != null) {
            return; // a DL4J layer: what its options mean is DL4J's to say, where it runs
        }
        Optional<PluginOperator> plugin = spec.graph() == null ? plugins.find(spec.op().value()) : Optional.empty();
        validateMaskOutputs(spec, plugin.map(PluginOperator::outputNames).orElse(null));
        if (plugin.isPresent()) {
            plugin.get().validate(spec);
        } else {
            new CatalogOps(catalog).validate(spec);
        }
    }

    /**
     * The catalog's problems with the op and attributes an invalid document names (unknown op, unknown or
     * ill-typed attribute), so that they are reported with its other problems; none for a plugin op, whose checks
     * need the whole spec.
     */
    public List<SpecError> problems(NamedOp named) {
        if (plugins.find(named.op().value()).isPresent()) {
            return List.of();
        }
        CatalogOps ops = new CatalogOps(catalog);
        try {
            ops.bind(ops.lookup(named.op()), named.attrs());
            return List.of();
        } catch (InvalidSpecException e) {
            return e.errors();
        }
    }

    /** Whether validating the spec asks ND4J about it beyond names: an ND4J op, or a graph (run once). */
    public boolean runsOps(OpSpec spec) {
        return plugins.find(spec.op().value()).isEmpty();
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
}
