package dev.gradcheck.op;

import dev.gradcheck.result.Mode;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.Init;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.LayerSpec;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.Suggestions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * A saved SameDiff model's whole gradient, for fast mode: the model's outputs (its loss variables, or else every
 * floating variable an op computes and no op reads) as a function of its trainable variables, the placeholders
 * fed the spec's inputs, the backward SameDiff's own autodiff through every op between them. A spec's
 * {@code check} names the variables taken (else every floating trainable one), its {@code no_grad} those left out;
 * rows are {@code dy/dw1}, by variable. So an op whose backward is wrong fails the rows of the variables before
 * it, as {@link NetworkScore} does for a DL4J network's layers.
 */
public final class SameDiffWholeModel {

    /**
     * The spec that checks the whole model and its function.
     *
     * @param spec     every variable taken an input at the model's value, checked
     * @param function the model's outputs as a function of them
     */
    public record Whole(OpSpec spec, Differentiable function) {}

    private SameDiffWholeModel() {}

    /** In fast mode: full mode checks each node entry by entry already. */
    public static boolean applies(OpSpec spec) {
        return spec.mode() == Mode.FAST;
    }

    /** The names a model spec's {@code no_grad} gives: placeholders and variables, never checked. */
    static List<String> noGrad(OpSpec spec) {
        List<String> names = new ArrayList<>(spec.noGrad());
        if (spec.layer() != null) {
            spec.layer().params().noGrad().forEach(n -> names.add(n.value()));
        }
        return names;
    }

    /**
     * The model's whole gradient, or null for a model with no trainable variable; a {@code check} or {@code no_grad} naming no trainable variable, {@code check}
     * naming a placeholder, or either choosing variables outside fast mode is INVALID at the name.
     */
    public static Whole of(OpSpec spec) throws InvalidSpecException {
        SameDiff sd = SameDiffModel.read(spec);
        Map<String, org.nd4j.linalg.api.ndarray.INDArray> fed = SameDiffModel.placeholders(spec, sd);
        List<String> chosen = chosen(spec, trainable(sd));
        if (chosen.isEmpty()) {
            return null;
        }
        Map<String, SDVariable> vars = new LinkedHashMap<>();
        List<InputSpec> inputs = new ArrayList<>();
        for (String name : chosen) {
            SDVariable v = sd.getVariable(name);
            vars.put(name, v);
            inputs.add(new InputSpec(name, v.getArr().shape(), Nd4jTypes.specType(v.dataType()), new Init.Values(
                    v.getArr().dup('c').castTo(DataType.DOUBLE).data().asDouble()), spec.network().pos()));
        }
        List<SDVariable> outputs = outputs(sd);
        SameDiffFunction function = new SameDiffFunction(sd, vars, outputs,
                outputs.stream().map(SDVariable::name).toList()).feeding(fed);
        OpSpec whole = new OpSpec(spec.name() + "/model", spec.pos(), new Located<>("samediff model",
                spec.network().pos()), Map.of(), inputs, List.of(), chosen, List.of(), spec.delta(),
                spec.tolerance(), spec.mode(), spec.order(), spec.options(), spec.backends(), spec.seed(),
                Expectation.PASS, null, spec.timeoutSeconds(), null, null);
        return new Whole(whole, function);
    }

    /**
     * The selection checked without running anything: what {@link #of} would refuse, so that a full-mode spec
     * naming variables is INVALID too.
     */
    public static void requireValidSelection(OpSpec spec, SameDiff sd) throws InvalidSpecException {
        chosen(spec, trainable(sd));
    }

    /** The model's floating trainable variables, in its order. */
    private static List<String> trainable(SameDiff sd) {
        return sd.variables().stream().filter(v -> v.getVariableType() == VariableType.VARIABLE
                && v.dataType().isFPType()).map(SDVariable::name).toList();
    }

    /** Its loss variables if it has any; else every floating variable an op computes and no op reads. */
    private static List<SDVariable> outputs(SameDiff sd) {
        if (sd.getLossVariables() != null && !sd.getLossVariables().isEmpty()) {
            return sd.getLossVariables().stream().map(sd::getVariable).toList();
        }
        Set<String> read = new java.util.HashSet<>();
        for (DifferentialFunction op : sd.ops()) {
            read.addAll(List.of(op.argNames()));
        }
        return sd.variables().stream().filter(v -> v.getVariableType() == VariableType.ARRAY
                && v.dataType().isFPType() && !read.contains(v.name())).toList();
    }

    private static List<String> chosen(OpSpec spec, List<String> trainable) throws InvalidSpecException {
        LayerSpec.Selection named = spec.layer() == null ? LayerSpec.Selection.DEFAULT : spec.layer().params();
        List<SpecError> errors = problems(spec, named, trainable);
        if (!errors.isEmpty()) {
            throw new InvalidSpecException(errors);
        }
        List<String> noGrad = noGrad(spec);
        List<String> chosen = named.check() != null ? named.check().stream().map(Located::value).toList()
                : trainable.stream().filter(v -> !noGrad.contains(v)).toList();
        if (applies(spec) && chosen.isEmpty() && !trainable.isEmpty()) {
            throw new InvalidSpecException(spec.network().pos(), "nothing to check: the model has no floating"
                    + " trainable variable outside no_grad (its variables: " + String.join(", ", trainable) + ")");
        }
        return chosen;
    }

    /** What is wrong with the spec's check and no_grad for this model's variables. */
    private static List<SpecError> problems(OpSpec spec, LayerSpec.Selection named, List<String> trainable) {
        List<SpecError> errors = new ArrayList<>();
        List<Located<String>> all = new ArrayList<>(named.noGrad());
        if (named.check() != null) {
            all.addAll(named.check());
            if (!spec.check().isEmpty()) {
                errors.add(new SpecError(spec.pos(), "check names the placeholder(s) " + spec.check() + ": the"
                        + " model's whole gradient is taken with respect to its trainable variables ("
                        + String.join(", ", trainable) + "); each node is checked for its inputs anyway"));
            }
        }
        for (Located<String> name : all) {
            if (!trainable.contains(name.value())) {
                errors.add(new SpecError(name.pos(), "'" + name.value() + "' is neither a placeholder nor a trainable"
                        + " variable of the model (its variables: " + String.join(", ", trainable) + ")"
                        + Suggestions.closest(name.value(), trainable).map(s -> "; did you mean '" + s + "'?")
                        .orElse("")));
            }
        }
        if (!applies(spec) && named.check() != null && errors.isEmpty()) {
            errors.add(new SpecError(named.check().isEmpty() ? spec.pos() : named.check().get(0).pos(), "check"
                    + " chooses the variables of the model's whole gradient, which only fast mode takes (mode:"
                    + " fast); in full mode each node is checked for every floating input but no_grad's"));
        }
        return errors;
    }
}
