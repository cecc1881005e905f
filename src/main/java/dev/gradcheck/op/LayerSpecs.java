package dev.gradcheck.op;

import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.Init;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.LayerSpec;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.Suggestions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A layer spec's parameters, once DL4J has said which the layer has: each trainable parameter becomes an input of
 * the spec, its values as DL4J initialised them under the spec's seed, checked unless {@code no_grad} names it (or
 * an explicit {@code check} leaves it out). The checker then draws, perturbs and compares them as any input.
 */
public final class LayerSpecs {

    private LayerSpecs() {}

    /**
     * The spec with its layer's parameters as inputs; any other spec as it is. A layer DL4J refuses is left as it
     * is too: building it ({@link LayerFunction}) refuses it again, so the check reports INVALID where it reports
     * every refusal, with the same words.
     */
    public static OpSpec withParams(OpSpec spec, ClassLoader loader) {
        if (spec.layer() == null) {
            return spec;
        }
        try {
            return expand(spec, loader);
        } catch (InvalidSpecException | RuntimeException e) {
            return spec;
        }
    }

    /**
     * The function that checks a layer spec's layer, its type found in {@code loader} (gradcheck's classes, or the
     * loader of a user's own layer): as a spec's check builds it. A type that names a ComputationGraph vertex
     * (MergeVertex, ElementWiseVertex, ...) is that vertex, fed the spec's inputs ({@link VertexFunction}).
     */
    public static Differentiable build(OpSpec spec, Map<String, INDArray> inputs, ClassLoader loader)
            throws InvalidSpecException {
        return VertexConfigs.isVertex(spec.layer(), loader) ? VertexFunction.build(spec, inputs, loader)
                : LayerFunction.build(spec, inputs, loader);
    }

    /** {@link #withParams}, or why DL4J refuses the layer or the spec's check and no_grad name no parameter. */
    static OpSpec expand(OpSpec spec, ClassLoader loader) throws InvalidSpecException {
        if (VertexConfigs.isVertex(spec.layer(), loader)) {
            return VertexFunction.expand(spec, loader); // a graph's vertex: every input it is fed, its parameters
        }
        if (!spec.layer().parameters().isEmpty()) {
            return spec; // already has them
        }
        InputSpec in = layerInput(spec);
        INDArray zeros = Nd4j.zeros(Nd4jTypes.of(in.dtype()), in.shape());
        LayerBuild build = LayerBuild.of(spec.layer(), zeros, spec.seed(), loader);
        requireLabels(spec, build);
        List<InputSpec> inputs = new ArrayList<>(spec.inputs());
        Map<String, INDArray> values = build.params();
        requireKnownInputs(spec, in, build.trainable());
        for (String p : build.trainable()) {
            INDArray v = values.get(p);
            java.util.Optional<InputSpec> given = spec.inputs().stream().filter(i -> i.name().equals(p)).findFirst();
            if (given.isPresent() && !java.util.Arrays.equals(given.get().shape(), v.shape())) {
                throw new InvalidSpecException(given.get().pos(), "input '" + p + "' gives parameter " + p + " of "
                        + spec.op().value() + " the shape " + java.util.Arrays.toString(given.get().shape())
                        + "; DL4J's is " + java.util.Arrays.toString(v.shape()));
            }
            if (given.isEmpty()) {
                inputs.add(new InputSpec(p, v.shape(), in.dtype(), new Init.Values(v.data().asDouble()),
                        spec.layer().type().pos()));
            }
        }
        return spec.withLayerParameters(inputs, checked(spec, build.trainable()), noGrad(spec, build.trainable()),
                build.trainable());
    }

    /** The input an output layer's loss compares its activations with; never checked. */
    static final String LABELS = "labels";

    /**
     * The input that masks a recurrent layer's time steps ([batch, steps], 1 where a step is real, 0 where it is
     * padding), as DL4J's {@code setMaskArray} takes it; never checked.
     */
    static final String MASK = "mask";

    /** Inputs that are no activation and never differentiated: labels and a mask. */
    private static boolean fixed(String name) {
        return name.equals(LABELS) || name.equals(MASK);
    }

    /** The input a layer takes: its activations, the first input written (labels and mask aside). */
    static InputSpec layerInput(OpSpec spec) throws InvalidSpecException {
        return spec.inputs().stream().filter(i -> !fixed(i.name())).findFirst()
                .orElseThrow(() -> new InvalidSpecException(spec.pos(), "a layer spec takes the layer's input"));
    }

    /**
     * Besides the layer's input (written first) and an output layer's labels, a spec's inputs give parameters
     * their values (in place of DL4J's initialisation): any other name is a mistake.
     */
    private static void requireKnownInputs(OpSpec spec, InputSpec in, List<String> params)
            throws InvalidSpecException {
        for (InputSpec other : spec.inputs()) {
            if (other != in && !fixed(other.name()) && !params.contains(other.name())) {
                throw new InvalidSpecException(other.pos(), "input '" + other.name() + "' is neither the layer's"
                        + " input (written first: '" + in.name() + "'), '" + LABELS + "', '" + MASK + "', nor a"
                        + " parameter of "
                        + spec.op().value() + " (parameters: " + String.join(", ", params) + ")");
            }
        }
    }

    /**
     * An output layer's backward starts from its loss against labels: the spec gives them as the input
     * {@code labels}, which is never checked. Any other layer takes none.
     */
    private static void requireLabels(OpSpec spec, LayerBuild build) throws InvalidSpecException {
        boolean given = spec.inputs().stream().anyMatch(i -> i.name().equals(LABELS));
        if (build.isOutputLayer() && !given) {
            throw new InvalidSpecException(spec.layer().type().pos(), spec.op().value() + " is an output layer:"
                    + " its backward starts from its loss, so the spec gives the labels as an input named '"
                    + LABELS + "' (shaped as the layer's output)");
        }
        if (!build.isOutputLayer() && given) {
            throw new InvalidSpecException(spec.input(LABELS).pos(), spec.op().value() + " is no output layer:"
                    + " it takes no labels");
        }
    }

    static List<String> checked(OpSpec spec, List<String> params) throws InvalidSpecException {
        LayerSpec.Selection named = spec.layer().params();
        List<String> noGrad = noGrad(spec, params);
        List<String> check = new ArrayList<>(spec.check());
        check.remove(LABELS);
        check.remove(MASK);
        if (named.check() == null) {
            params.stream().filter(p -> !noGrad.contains(p) && !check.contains(p)).forEach(check::add);
        } else {
            List<String> chosen = resolve(named.check(), params, spec, "check");
            for (Located<String> name : named.check()) {
                if (noGrad.contains(name.value())) {
                    throw new InvalidSpecException(name.pos(), "parameter '" + name.value() + "' is in both check"
                            + " and no_grad");
                }
            }
            check.addAll(chosen);
        }
        if (check.isEmpty()) {
            throw new InvalidSpecException(spec.pos(), "nothing to check: the input and every parameter of "
                    + spec.op().value() + " " + params + " are in no_grad");
        }
        return check;
    }

    static List<String> noGrad(OpSpec spec, List<String> params) throws InvalidSpecException {
        List<String> noGrad = new ArrayList<>(spec.noGrad());
        for (String name : List.of(LABELS, MASK)) {
            if (spec.inputs().stream().anyMatch(i -> i.name().equals(name)) && !noGrad.contains(name)) {
                noGrad.add(name);
            }
        }
        noGrad.addAll(resolve(spec.layer().params().noGrad(), params, spec, "no_grad"));
        return noGrad;
    }

    private static List<String> resolve(List<Located<String>> names, List<String> params, OpSpec spec, String key)
            throws InvalidSpecException {
        List<SpecError> errors = new ArrayList<>();
        List<String> resolved = new ArrayList<>();
        for (Located<String> name : names) {
            if (params.contains(name.value())) {
                resolved.add(name.value());
            } else {
                errors.add(new SpecError(name.pos(), key + " names '" + name.value() + "', which is neither an"
                        + " input nor a parameter of " + spec.op().value() + " (parameters: "
                        + String.join(", ", params) + ")" + Suggestions.closest(name.value(), params)
                        .map(s -> "; did you mean '" + s + "'?").orElse("")));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidSpecException(errors);
        }
        return resolved;
    }
}
