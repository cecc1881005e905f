package dev.gradcheck.op.catalog;

import dev.gradcheck.spec.GraphNode;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.Suggestions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A spec's op names and attributes checked against the {@link OpCatalog} alone: the op exists and a spec can
 * build it, and each attribute binds to one of its arguments or properties. Touches no ND4J class, so validate
 * (and its {@code --static} mode) answers without starting ND4J; {@code op.Nd4jOpBuilder} binds through the same
 * code when it builds the op.
 */
public final class CatalogOps {

    private final OpCatalog catalog;

    public CatalogOps(OpCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * Every op and attribute problem of a one-op spec, or of each node of a graph spec (all nodes at once, in
     * the order they appear). Shapes are not checked here: ND4J's shape rules live in its kernels.
     */
    public void validate(OpSpec spec) throws InvalidSpecException {
        if (spec.graph() == null) {
            bind(lookup(spec.op()), spec.attrs());
            return;
        }
        List<SpecError> errors = new ArrayList<>();
        for (GraphNode node : spec.graph().nodes()) {
            try {
                bind(lookup(node.op()), node.attrs());
            } catch (InvalidSpecException e) {
                errors.addAll(e.errors());
            }
        }
        if (!errors.isEmpty()) {
            errors.sort(Comparator.comparingInt((SpecError e) -> e.pos().line()).thenComparingInt(e -> e.pos().col()));
            throw new InvalidSpecException(errors);
        }
    }

    /** The op a spec names, if a spec can build it; otherwise why not, at the name's position. */
    public OpInfo lookup(Located<String> op) throws InvalidSpecException {
        String name = op.value();
        OpInfo info = catalog.find(name).filter(OpInfo::checkable).orElse(null);
        if (info == null) {
            boolean nativeOnly = catalog.find(name).isPresent();
            String msg = nativeOnly
                    ? "op '" + name + "' exists only in ND4J's native registry, with no SameDiff class to build and"
                      + " differentiate it"
                    : "unknown op '" + name + "'" + Suggestions.closest(name, catalog.checkableNames())
                      .map(s -> " (did you mean '" + s + "'?)").orElse("")
                      + "; `gradcheck list-ops` lists them (plugin ops once loaded with --plugin)";
            throw new InvalidSpecException(op.pos(), msg);
        }
        return info;
    }

    /** The spec's attributes as the op's positional arguments and properties (every problem at its position). */
    public AttributeBinder.Bound bind(OpInfo info, Map<String, Located<Object>> attrs) throws InvalidSpecException {
        OpBinding binding = catalog.binding(info.name());
        return AttributeBinder.bind(info.name(), binding.positional(), binding.properties(), attrs);
    }
}
