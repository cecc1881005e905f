package dev.gradcheck.op;

import dev.gradcheck.spi.Operator;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.Suggestions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A plugin {@link Operator} seen as a {@link Differentiable}, so the checker treats it exactly like an ND4J op.
 * Everything the plugin hands back is checked against its own contract (every output present, stable output
 * shapes, gradients in their input's shape), and anything it throws becomes an {@link OperatorException} that
 * names the op: a broken plugin ends its check as an operator error, with a message that says what it did.
 */
public final class OperatorFunction implements Differentiable, ForwardMode {

    private final PluginOperator plugin;
    private final Operator op;
    private final Map<String, Object> attrs;
    private final List<String> inputNames;
    private final List<String> outputNames;
    private final Map<String, long[]> outputShapes = new HashMap<>();

    private OperatorFunction(PluginOperator plugin, Map<String, Object> attrs) {
        this.plugin = plugin;
        this.op = plugin.operator();
        this.attrs = Map.copyOf(attrs);
        this.inputNames = plugin.inputNames();
        this.outputNames = plugin.outputNames();
    }

    /** Checks the spec against the operator (input and attribute names) and binds its attributes. */
    public static OperatorFunction bind(PluginOperator plugin, OpSpec spec) throws InvalidSpecException {
        validate(plugin, spec);
        Map<String, Object> attrs = new LinkedHashMap<>();
        spec.attrs().forEach((k, v) -> attrs.put(k, v.value()));
        return new OperatorFunction(plugin, attrs);
    }

    /** Every input the operator takes must be given, no other; every attribute must be one it declares. */
    public static void validate(PluginOperator plugin, OpSpec spec) throws InvalidSpecException {
        List<String> takes = plugin.inputNames();
        List<String> attributes = plugin.attributeNames();
        String opName = "plugin op '" + plugin.name() + "'";
        List<SpecError> errors = new ArrayList<>();
        for (InputSpec in : spec.inputs()) {
            if (!takes.contains(in.name())) {
                errors.add(new SpecError(in.pos(), opName + " has no input '" + in.name() + "'"
                        + suggestion(in.name(), takes) + "; it takes " + listOf(takes)));
            }
        }
        for (String name : takes) {
            if (spec.inputs().stream().noneMatch(i -> i.name().equals(name))) {
                errors.add(new SpecError(spec.op().pos(), opName + " needs input '" + name + "', which the spec"
                        + " does not give; it takes " + listOf(takes)));
            }
        }
        for (Map.Entry<String, Located<Object>> a : spec.attrs().entrySet()) {
            if (!attributes.contains(a.getKey())) {
                errors.add(new SpecError(a.getValue().pos(), opName + " has no attribute '" + a.getKey() + "'"
                        + suggestion(a.getKey(), attributes) + "; it takes " + listOf(attributes)));
            }
        }
        if (plugin.complex()) {
            ComplexPairs.validate(opName, plugin.outputNames(), spec, errors);
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

    @Override
    public List<String> inputNames() {
        return inputNames;
    }

    @Override
    public List<String> outputNames() {
        return outputNames;
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
        Map<String, INDArray> returned = call("forward", () -> op.forward(copies(inputs), attrs));
        if (returned == null) {
            throw new OperatorException(plugin.describe() + ": forward returned null instead of its outputs");
        }
        Map<String, INDArray> outputs = new LinkedHashMap<>();
        for (String name : outputNames) {
            INDArray y = returned.get(name);
            if (y == null) {
                throw new OperatorException(plugin.describe() + ": forward returned no output '" + name
                        + "' (it returned " + listOf(List.copyOf(returned.keySet())) + ")");
            }
            long[] before = outputShapes.putIfAbsent(name, y.shape());
            if (before != null && !Arrays.equals(before, y.shape())) {
                throw new OperatorException(plugin.describe() + ": forward returned output '" + name
                        + "' of shape " + Arrays.toString(y.shape()) + ", but of shape " + Arrays.toString(before)
                        + " before, for inputs of the same shapes");
            }
            outputs.put(name, y.dup());
        }
        for (String name : returned.keySet()) {
            if (!outputNames.contains(name)) {
                throw new OperatorException(plugin.describe() + ": forward returned '" + name
                        + "', which is not one of its outputs (" + listOf(outputNames) + ")");
            }
        }
        return outputs;
    }

    @Override
    public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                     List<String> wrt) {
        Map<String, INDArray> outputs = forward(inputs);
        Map<String, INDArray> returned = call("backward",
                () -> op.backward(copies(inputs), outputs, copies(cotangents), attrs));
        if (returned == null) {
            throw new OperatorException(plugin.describe() + ": backward returned null instead of a map of input"
                    + " gradients (leave out, or map to null, the inputs it gives no gradient)");
        }
        Map<String, INDArray> grads = new HashMap<>();
        for (String name : wrt) {
            INDArray g = returned.get(name);
            if (g == null) {
                continue; // no gradient for this input: the checker reports a zero gradient where that is wrong
            }
            long[] expected = inputs.get(name).shape();
            if (!Arrays.equals(expected, g.shape())) {
                throw new OperatorException(plugin.describe() + ": backward returned a gradient of shape "
                        + Arrays.toString(g.shape()) + " for input '" + name + "' of shape "
                        + Arrays.toString(expected) + " (a gradient has its input's shape)");
            }
            grads.put(name, g.dup());
        }
        return grads;
    }

    /** Only an operator that says it implements jvp has its JVP checked. */
    @Override
    public Optional<ForwardMode> forwardMode() {
        return plugin.hasJvp() ? Optional.of(this) : Optional.empty();
    }

    @Override
    public Map<String, INDArray> jvp(Map<String, INDArray> inputs, Map<String, INDArray> tangents) {
        Map<String, INDArray> outputs = forward(inputs);
        Map<String, INDArray> returned = call("jvp", () -> op.jvp(copies(inputs), copies(tangents), attrs));
        if (returned == null) {
            throw new OperatorException(plugin.describe() + ": jvp returned null instead of its output tangents");
        }
        Map<String, INDArray> result = new HashMap<>();
        for (Map.Entry<String, INDArray> y : outputs.entrySet()) {
            if (!y.getValue().dataType().isFPType()) {
                continue;
            }
            INDArray t = returned.get(y.getKey());
            if (t == null || !Arrays.equals(t.shape(), y.getValue().shape())) {
                throw new OperatorException(plugin.describe() + ": jvp returned " + (t == null ? "no tangent"
                        : "a tangent of shape " + Arrays.toString(t.shape())) + " for output '" + y.getKey()
                        + "' of shape " + Arrays.toString(y.getValue().shape()));
            }
            result.put(y.getKey(), t.dup());
        }
        return result;
    }

    private static Map<String, INDArray> copies(Map<String, INDArray> arrays) {
        Map<String, INDArray> copy = new LinkedHashMap<>();
        arrays.forEach((k, v) -> copy.put(k, v.dup()));
        return copy;
    }

    /** Runs plugin code; whatever it throws becomes an error naming the op and the method. */
    private <T> T call(String method, Callable<T> code) {
        try {
            return code.call();
        } catch (StackOverflowError e) {
            // deep or endless recursion in the plugin: its fault, and the stack has unwound by now
            throw new OperatorException(plugin.describe() + " threw in " + method, e);
        } catch (VirtualMachineError e) {
            throw e; // out of memory is not the plugin's fault to report
        } catch (Exception | LinkageError | AssertionError e) {
            throw new OperatorException(plugin.describe() + " threw in " + method, e);
        }
    }
}
