package dev.gradcheck.op;

import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A saved SameDiff model (FlatBuffers, {@code SameDiff.save} or {@code asFlatFile}) named by a network spec: its
 * placeholders fed the spec's inputs, one forward pass records every variable's value, and each op node whose
 * inputs and outputs are floating becomes a one-op check ({@link SameDiffNodes}) at the values it saw. A node's
 * function is the loaded op itself, copied into a SameDiff of its own ({@link #function}), so what is checked is
 * the model's own op with its own configuration, not one rebuilt from a name.
 */
public final class SameDiffModel {

    private final SameDiff sd;
    private final OpSpec spec;
    /** Every variable's value in the forward pass: placeholders as fed, variables, constants, op outputs. */
    private final Map<String, INDArray> values;
    /** The op nodes checked, by the name of the node spec that checks them. */
    private final Map<String, DifferentialFunction> opsBySpec = new LinkedHashMap<>();

    private SameDiffModel(SameDiff sd, OpSpec spec, Map<String, INDArray> values) {
        this.sd = sd;
        this.spec = spec;
        this.values = values;
    }

    /**
     * Whether a network spec names a SameDiff model: any file but a DL4J network's ({@code .zip}, a ModelSerializer
     * archive; {@code .json}, a MultiLayerConfiguration).
     */
    public static boolean names(OpSpec spec) {
        String file = spec.network().value().toLowerCase(java.util.Locale.ROOT);
        return !file.endsWith(".zip") && !file.endsWith(".json");
    }

    /** The model loaded and run once on the spec's inputs; what SameDiff refuses is INVALID at {@code network:}. */
    public static SameDiffModel load(OpSpec spec) throws InvalidSpecException {
        SameDiff sd = read(spec);
        SameDiffWholeModel.requireValidSelection(spec, sd); // check and no_grad are never ignored
        Map<String, INDArray> fed = placeholders(spec, sd);
        return new SameDiffModel(sd, spec, forward(spec, sd, fed));
    }

    /** The model as SameDiff reads it from the spec's file; what SameDiff refuses is INVALID at {@code network:}. */
    static SameDiff read(OpSpec spec) throws InvalidSpecException {
        Path file = NetworkFile.of(spec);
        try {
            NetworkFile.requireRegularFile(file);
            return SameDiff.load(new File(file.toString()), false);
        } catch (java.io.IOException | RuntimeException e) {
            throw new InvalidSpecException(spec.network().pos(), "SameDiff cannot load the model " + file
                    + " (a file other than .zip or .json is read as SameDiff's FlatBuffers): "
                    + GraphBuilder.firstLine(e));
        }
    }

    /** The spec's inputs, one per placeholder, by name: an input no placeholder has, or a placeholder left out, is refused. */
    static Map<String, INDArray> placeholders(OpSpec spec, SameDiff sd) throws InvalidSpecException {
        List<String> names = sd.inputs();
        List<SpecError> errors = new ArrayList<>();
        Map<String, INDArray> fed = new LinkedHashMap<>();
        for (InputSpec in : spec.inputs()) {
            if (!names.contains(in.name())) {
                errors.add(new SpecError(in.pos(), "input '" + in.name() + "' is no placeholder of the model"
                        + " (its placeholders: " + String.join(", ", names) + ")"));
            } else {
                fed.put(in.name(), NetworkMasks.drawn(in, spec));
            }
        }
        for (String name : names) {
            if (!fed.containsKey(name) && errors.isEmpty()) {
                errors.add(new SpecError(spec.network().pos(), "the model's placeholder '" + name
                        + "' has no input: give it under inputs (shape " + shapeOf(sd.getVariable(name)) + ")"));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidSpecException(errors);
        }
        return fed;
    }

    private static String shapeOf(SDVariable v) {
        long[] shape = v.placeholderShape();
        return (shape == null ? "unknown" : Arrays.toString(shape)) + ", " + v.dataType();
    }

    /** One forward pass: the value of every op output, beside the placeholders, variables and constants. */
    private static Map<String, INDArray> forward(OpSpec spec, SameDiff sd, Map<String, INDArray> fed)
            throws InvalidSpecException {
        List<String> computed = new ArrayList<>();
        Map<String, INDArray> values = new LinkedHashMap<>(fed);
        for (SDVariable v : sd.variables()) {
            if (v.getVariableType() == VariableType.ARRAY) {
                computed.add(v.name());
            } else if (v.getVariableType() != VariableType.PLACEHOLDER) {
                values.put(v.name(), v.getArr());
            }
        }
        try {
            values.putAll(sd.output(fed, computed.toArray(new String[0])));
        } catch (RuntimeException e) {
            throw new InvalidSpecException(spec.network().pos(), "the model does not run on the spec's inputs ("
                    + described(fed) + "): " + GraphBuilder.firstLine(e));
        }
        return values;
    }

    private static String described(Map<String, INDArray> fed) {
        List<String> parts = new ArrayList<>();
        fed.forEach((n, a) -> parts.add(n + " " + Arrays.toString(a.shape()) + " " + a.dataType()));
        return String.join(", ", parts);
    }

    /** Every op node with a floating input and a floating output, in the model's order, with its check. */
    public List<SameDiffNodes.Node> nodes() {
        List<SameDiffNodes.Node> nodes = new ArrayList<>();
        DifferentialFunction[] ops = sd.ops();
        for (int i = 0; i < ops.length; i++) {
            SameDiffNodes.Node node = SameDiffNodes.node(spec, i + 1, ops[i], values);
            if (node != null) {
                opsBySpec.put(node.spec().name(), ops[i]);
                nodes.add(node);
            }
        }
        return nodes;
    }

    /**
     * The function a node spec checks (a {@code check.FunctionFactory}): the model's op, copied through its own
     * FlatBuffers form into a new SameDiff whose variables are the node's inputs.
     */
    public Differentiable function(OpSpec nodeSpec, Map<String, INDArray> inputs) {
        DifferentialFunction op = opsBySpec.get(nodeSpec.name());
        if (op == null) {
            throw new IllegalArgumentException(nodeSpec.name() + " is no node of " + spec.network().value());
        }
        return SameDiffNodes.function(op, inputs, nodeSpec.check());
    }
}
