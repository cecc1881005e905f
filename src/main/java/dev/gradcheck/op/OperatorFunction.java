package dev.gradcheck.op;

import dev.gradcheck.op.plugin.PluginOperator;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spi.Operator;
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
 * shapes, gradients in their input's shape, for its inputs only and none for an integer input), and anything it
 * throws becomes an {@link OperatorException} that names the op: a broken plugin ends its check as an operator
 * error, with a message that says what it did.
 *
 * <p>The plugin gets copies of every array, and the copies are compared with the originals after each call: a
 * forward that changes its inputs, or a backward that changes its inputs, outputs or output gradients, is
 * recorded ({@link #argumentsChanged()}) and fails the check's input-mutation row. The outputs a backward is
 * given are the forward's at the backward's own point, but that forward is not re-run before every backward: once
 * a backward at x has its outputs, later backwards at x reuse them, so a backward that reads state left by the
 * last forward call (outputs cached in a field) sees another point's state and is caught.
 */
public final class OperatorFunction implements Differentiable, ForwardMode {

    private final PluginOperator plugin;
    private final Operator op;
    private final Map<String, Object> attrs;
    private final List<String> inputNames;
    private final List<String> outputNames;
    private final Map<String, long[]> outputShapes = new HashMap<>();
    private final List<String> changes = new ArrayList<>();
    private final java.util.Set<String> changed = new java.util.HashSet<>();
    /** The point of the last backward and the forward's outputs there (copies), reused while the point stays. */
    private Map<String, INDArray> backwardPoint;
    private Map<String, INDArray> outputsAtBackwardPoint;

    private OperatorFunction(PluginOperator plugin, Map<String, Object> attrs) {
        this.plugin = plugin;
        this.op = plugin.operator();
        this.attrs = Map.copyOf(attrs);
        this.inputNames = plugin.inputNames();
        this.outputNames = plugin.outputNames();
    }

    /** Checks the spec against the operator (input and attribute names) and binds its attributes. */
    public static OperatorFunction bind(PluginOperator plugin, OpSpec spec) throws InvalidSpecException {
        plugin.validate(spec);
        Map<String, Object> attrs = new LinkedHashMap<>();
        spec.attrs().forEach((k, v) -> attrs.put(k, v.value()));
        return new OperatorFunction(plugin, attrs);
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
    public List<String> attributesLeftAtDefault() {
        return plugin.attributeNames().stream().filter(a -> !attrs.containsKey(a)).toList();
    }

    @Override
    public List<String> argumentsChanged() {
        return List.copyOf(changes);
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
        Map<String, INDArray> handed = copies(inputs);
        Map<String, INDArray> returned = call("forward", () -> op.forward(handed, attrs));
        watch("forward", "input", inputs, handed);
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
        Map<String, INDArray> outputs = outputsAt(inputs);
        Map<String, INDArray> handedInputs = copies(inputs);
        Map<String, INDArray> handedOutputs = copies(outputs);
        Map<String, INDArray> handedGradients = copies(cotangents);
        Map<String, INDArray> returned = call("backward",
                () -> op.backward(handedInputs, handedOutputs, handedGradients, attrs));
        watch("backward", "input", inputs, handedInputs);
        watch("backward", "output", outputs, handedOutputs);
        watch("backward", "output gradient", cotangents, handedGradients);
        if (returned == null) {
            throw new OperatorException(plugin.describe() + ": backward returned null instead of a map of input"
                    + " gradients (leave out, or map to null, the inputs it gives no gradient)");
        }
        for (Map.Entry<String, INDArray> g : returned.entrySet()) {
            if (!inputNames.contains(g.getKey())) {
                throw new OperatorException(plugin.describe() + ": backward returned a gradient for '" + g.getKey()
                        + "', which is not one of its inputs (" + listOf(inputNames) + ")");
            }
            INDArray x = inputs.get(g.getKey());
            if (g.getValue() != null && x != null && !x.dataType().isFPType()) {
                throw new OperatorException(plugin.describe() + ": backward returned a gradient for input '"
                        + g.getKey() + "', which is " + Nd4jTypes.toSpec(x.dataType()).map(d -> d.specName())
                        .orElse(x.dataType().name()) + " and has no gradient (leave it out of the map, or map it to"
                        + " null)");
            }
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
        Map<String, INDArray> handedInputs = copies(inputs);
        Map<String, INDArray> handedTangents = copies(tangents);
        Map<String, INDArray> returned = call("jvp", () -> op.jvp(handedInputs, handedTangents, attrs));
        watch("jvp", "input", inputs, handedInputs);
        watch("jvp", "tangent", tangents, handedTangents);
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

    /**
     * The forward's outputs at {@code inputs}: those of the last backward's point when it is the same point (no
     * forward call, so the plugin's last forward may have been elsewhere), else a forward there.
     */
    private Map<String, INDArray> outputsAt(Map<String, INDArray> inputs) {
        if (backwardPoint == null || !samePoint(backwardPoint, inputs)) {
            Map<String, INDArray> outputs = forward(inputs);
            backwardPoint = copies(inputs);
            outputsAtBackwardPoint = copies(outputs);
        }
        return copies(outputsAtBackwardPoint);
    }

    private static boolean samePoint(Map<String, INDArray> a, Map<String, INDArray> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (Map.Entry<String, INDArray> e : a.entrySet()) {
            if (firstDifference(e.getValue(), b.get(e.getKey())) != NO_DIFFERENCE) {
                return false;
            }
        }
        return true;
    }

    private static final long NO_DIFFERENCE = -1;

    /** The flat index of the first element that differs (NaN equals NaN), -2 for another shape or dtype, or -1. */
    private static long firstDifference(INDArray a, INDArray b) {
        if (a.dataType() != b.dataType() || !Arrays.equals(a.shape(), b.shape())) {
            return -2;
        }
        double[] x = a.castTo(org.nd4j.linalg.api.buffer.DataType.DOUBLE).dup('c').data().asDouble();
        double[] y = b.castTo(org.nd4j.linalg.api.buffer.DataType.DOUBLE).dup('c').data().asDouble();
        for (int i = 0; i < x.length; i++) {
            if (Double.doubleToLongBits(x[i]) != Double.doubleToLongBits(y[i])) {
                return i;
            }
        }
        return NO_DIFFERENCE;
    }

    /** Notes each argument the plugin changed in its copy (once per method and argument). */
    private void watch(String method, String role, Map<String, INDArray> originals, Map<String, INDArray> handed) {
        for (Map.Entry<String, INDArray> e : originals.entrySet()) {
            INDArray copy = handed.get(e.getKey());
            if (copy == null || !changed.add(method + " " + role + " " + e.getKey())) {
                continue;
            }
            long at = firstDifference(e.getValue(), copy);
            if (at == NO_DIFFERENCE) {
                changed.remove(method + " " + role + " " + e.getKey());
                continue;
            }
            String what = at < 0 ? "reshaped or retyped it" : e.getKey() + Arrays.toString(unravel(at,
                    e.getValue().shape())) + " was " + e.getValue().getDouble(at) + ", became " + copy.getDouble(at);
            changes.add(method + " changed its " + role + " '" + e.getKey() + "' in place (" + what + ")");
        }
    }

    private static long[] unravel(long flat, long[] shape) {
        long[] idx = new long[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            idx[d] = shape[d] == 0 ? 0 : flat % shape[d];
            flat = shape[d] == 0 ? 0 : flat / shape[d];
        }
        return idx;
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
