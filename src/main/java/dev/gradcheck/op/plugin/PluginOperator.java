package dev.gradcheck.op.plugin;

import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.Suggestions;
import dev.gradcheck.spi.Operator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * A plugin operator, where it was loaded from (a jar or directory path), so that errors and {@code list-ops} can
 * name its source, and its metadata (name, input, output and attribute names, complex, hasJvp), read once when it
 * is loaded: a plugin whose metadata throws or makes no sense is a load problem, not a crash of whatever reads it
 * later.
 */
public record PluginOperator(Operator operator, String source, String name, List<String> inputNames,
                             List<String> outputNames, List<String> attributeNames, boolean complex,
                             boolean hasJvp) {

    /**
     * Reads and checks the operator's metadata.
     *
     * @throws PluginException with one problem, {@code plugin op X (from PATH): inputNames() threw ...}, when a
     *                         metadata method throws or returns null, an empty name, or a name twice
     */
    public static PluginOperator read(Operator operator, String source) throws PluginException {
        String prefix = "plugin op " + operator.getClass().getName() + " (from " + source + "): ";
        String name = call(prefix, "name", operator::name);
        if (name.isBlank()) {
            throw new PluginException(List.of(prefix + "name() is empty"));
        }
        prefix = "plugin op '" + name + "' (from " + source + "): ";
        return new PluginOperator(operator, source, name,
                names(prefix, "inputNames", operator::inputNames),
                names(prefix, "outputNames", operator::outputNames),
                names(prefix, "attributeNames", operator::attributeNames),
                call(prefix, "complex", operator::complex), call(prefix, "hasJvp", operator::hasJvp));
    }

    /** {@code plugin op 'linear' (from /path/linear-op.jar)}: how every error about it starts. */
    public String describe() {
        return "plugin op '" + name + "' (from " + source + ")";
    }

    /**
     * Every input the operator takes must be given, no other; every attribute must be one it declares. Checked
     * against the metadata read at load, so validate needs no ND4J for a plugin op either.
     */
    public void validate(OpSpec spec) throws InvalidSpecException {
        String opName = "plugin op '" + name + "'";
        List<SpecError> errors = new ArrayList<>();
        for (InputSpec in : spec.inputs()) {
            if (!inputNames.contains(in.name())) {
                errors.add(new SpecError(in.pos(), opName + " has no input '" + in.name() + "'"
                        + suggestion(in.name(), inputNames) + "; it takes " + listOf(inputNames)));
            }
        }
        for (String input : inputNames) {
            if (spec.inputs().stream().noneMatch(i -> i.name().equals(input))) {
                errors.add(new SpecError(spec.op().pos(), opName + " needs input '" + input + "', which the spec"
                        + " does not give; it takes " + listOf(inputNames)));
            }
        }
        for (Map.Entry<String, Located<Object>> a : spec.attrs().entrySet()) {
            if (!attributeNames.contains(a.getKey())) {
                errors.add(new SpecError(a.getValue().pos(), opName + " has no attribute '" + a.getKey() + "'"
                        + suggestion(a.getKey(), attributeNames) + "; it takes " + listOf(attributeNames)));
            }
        }
        if (complex) {
            ComplexPairs.validate(opName, outputNames, spec, errors);
        }
        if (!errors.isEmpty()) {
            throw new InvalidSpecException(errors);
        }
    }

    private static String suggestion(String typed, List<String> names) {
        return Suggestions.closest(typed, names).map(s -> " (did you mean '" + s + "'?)").orElse("");
    }

    private static String listOf(List<String> names) {
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    private static List<String> names(String prefix, String method, Callable<List<String>> code)
            throws PluginException {
        List<String> names = call(prefix, method, code);
        Set<String> seen = new HashSet<>();
        for (String n : names) {
            if (n == null || n.isBlank()) {
                throw new PluginException(List.of(prefix + method + "() returned a null or empty name " + names));
            }
            if (!seen.add(n)) {
                throw new PluginException(List.of(prefix + method + "() returned '" + n + "' twice " + names));
            }
        }
        return List.copyOf(names);
    }

    /** Runs a metadata method; a throw (an Error too: it comes from plugin code) or a null is a load problem. */
    private static <T> T call(String prefix, String method, Callable<T> code) throws PluginException {
        T value;
        try {
            value = code.call();
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Exception | Error e) {
            throw new PluginException(List.of(prefix + method + "() threw " + e));
        }
        if (value == null) {
            throw new PluginException(List.of(prefix + method + "() returned null"));
        }
        return value;
    }
}
