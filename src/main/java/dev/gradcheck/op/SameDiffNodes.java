package dev.gradcheck.op;

import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.Init;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/** The op nodes of a {@link SameDiffModel}: each one's check at its recorded values, and its own function. */
public final class SameDiffNodes {

    /**
     * One op node of the model.
     *
     * @param index   its 1-based position among the model's ops, as {@code SameDiff.ops()} lists them
     * @param op      its operator ({@code opName()}: matmul, cumprod, ...)
     * @param ownName the op's own name in the model
     * @param in      the variables it reads, in argument order
     * @param out     the variables it defines
     * @param spec    the one-op check of it: its inputs hold the values the forward pass gave them
     */
    public record Node(int index, String op, String ownName, List<String> in, List<String> out, OpSpec spec) {

        /** "node 2 (cumprod 'cumprod_1': t -> c)". */
        public String describe() {
            return "node " + index + " (" + op + " '" + ownName + "': " + String.join(", ", in) + " -> "
                    + String.join(", ", out) + ")";
        }
    }

    private SameDiffNodes() {}

    /**
     * The node's check, or null for a node with no floating input or output (nothing to differentiate); the
     * model spec's {@code no_grad} (placeholders and variables) is never checked.
     */
    static Node node(OpSpec model, int index, DifferentialFunction op, Map<String, INDArray> values) {
        List<String> in = List.of(op.argNames());
        List<String> out = List.of(op.outputVariablesNames());
        if (!in.stream().allMatch(values::containsKey) || out.stream().noneMatch(o -> floating(values.get(o)))) {
            return null;
        }
        List<InputSpec> inputs = inputs(model, in, values);
        if (inputs == null) {
            return null;
        }
        List<String> excluded = SameDiffWholeModel.noGrad(model);
        List<String> checked = inputs.stream().filter(i -> i.dtype().isFloating() && !excluded.contains(i.name()
                .replaceFirst("#\\d+$", ""))).map(InputSpec::name).toList();
        if (checked.isEmpty()) {
            return null;
        }
        List<Located<String>> outputs = out.stream().filter(o -> floating(values.get(o)))
                .map(o -> new Located<>(o, model.network().pos())).toList();
        OpSpec spec = new OpSpec(model.name() + "/" + op.getOwnName(), model.network().pos(),
                new Located<>(op.opName(), model.network().pos()), Map.of(), inputs, outputs, checked, List.of(),
                model.delta(), model.tolerance(), model.mode(), model.order(), model.options(), model.backends(),
                model.seed(), Expectation.PASS, null, model.timeoutSeconds(), null, null);
        return new Node(index, op.opName(), op.getOwnName(), in, out, spec);
    }

    private static boolean floating(INDArray a) {
        return a != null && a.dataType().isFPType();
    }

    /** The node's arguments as spec inputs holding their values; a variable read twice gets "#2"; null if unsupported. */
    private static List<InputSpec> inputs(OpSpec model, List<String> in, Map<String, INDArray> values) {
        List<InputSpec> specs = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        for (String arg : in) {
            INDArray a = values.get(arg);
            Optional<DType> dtype = Nd4jTypes.toSpec(a.dataType());
            if (dtype.isEmpty()) {
                return null; // strings and other types a spec cannot hold
            }
            String name = arg;
            for (int copy = 2; !taken.add(name); copy++) {
                name = arg + "#" + copy;
            }
            specs.add(new InputSpec(name, a.shape(), dtype.get(), new Init.Values(a.dup('c')
                    .castTo(DataType.DOUBLE).data().asDouble()), model.network().pos()));
        }
        return specs;
    }

    /**
     * The op copied (through its FlatBuffers form, {@code dup()}) into a SameDiff of its own over {@code inputs}
     * (in argument order): checked floating inputs as variables, the others constants, as a one-op spec is built.
     */
    static Differentiable function(DifferentialFunction op, Map<String, INDArray> inputs, Collection<String> checked) {
        SameDiff sd = SameDiff.create();
        Map<String, SDVariable> vars = Nd4jOpBuilder.variables(sd, inputs, checked);
        DifferentialFunction copy = op.dup();
        copy.setSameDiff(sd);
        copy.setOwnName(op.getOwnName());
        sd.putOpForId(copy.getOwnName(), copy);
        sd.addArgsFor(vars.values().toArray(new SDVariable[0]), copy);
        List<SDVariable> outputs = List.of(copy.outputVariables());
        SameDiffFunction session = new SameDiffFunction(sd, vars, outputs, List.of(op.outputVariablesNames()));
        return Nd4jOpBuilder.Executor.configured() == Nd4jOpBuilder.Executor.DIRECT
                ? new CompiledFunction(session, null) : session;
    }
}
