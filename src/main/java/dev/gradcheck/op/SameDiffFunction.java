package dev.gradcheck.op;

import dev.gradcheck.spec.MemoryBudget;
import java.util.ArrayList;
import java.util.HashMap;
import dev.gradcheck.op.catalog.AffineInputs;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.CustomOp;
import org.nd4j.linalg.api.ops.OpContext;
import org.nd4j.linalg.api.shape.LongShapeDescriptor;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A {@link Differentiable} over a SameDiff graph whose inputs are variables (floating) or constants (integer).
 * The analytic side is SameDiff's own autodiff: a loss {@code Σ_k sum(c_k ⊙ out_k)} with the cotangents
 * {@code c_k} as placeholders, so one gradient function serves every one-hot row of the Jacobian.
 */
final class SameDiffFunction implements Differentiable {

    private static final String COTANGENT_PREFIX = "gradcheck_cotangent_";

    /** The key SameDiff files its gradient function under ({@code SameDiff.GRAD_FN_KEY}, not public). */
    static final String GRAD_FUNCTION = "grad";

    private final SameDiff sd;
    private final List<String> inputNames;
    private final Map<String, SDVariable> inputVars;
    private final List<String> outputNames;
    private final List<String> outputVarNames;
    /** The outputs whose cotangents the loss reads, by index; empty until the first {@link #vjp}. */
    private final List<Integer> lossOutputs = new ArrayList<>();
    private List<String> leftAtDefault = List.of();
    /** What a one-op build's op is declared affine in ({@link AffineInputs}); none for a graph's or a model's. */
    private AffineInputs affine = AffineInputs.NONE;
    /** Placeholders fed at every pass, never differentiated: a saved model's inputs ({@link SameDiffModel}). */
    private Map<String, INDArray> fed = Map.of();

    /** Outputs named by their index ("0", "1", ...), as a one-op spec's {@code output:} refers to them. */
    SameDiffFunction(SameDiff sd, Map<String, SDVariable> inputVars, List<SDVariable> outputs) {
        this(sd, inputVars, outputs, indexNames(outputs.size()));
    }

    SameDiffFunction(SameDiff sd, Map<String, SDVariable> inputVars, List<SDVariable> outputs,
                     List<String> outputNames) {
        this.sd = sd;
        this.inputVars = inputVars;
        this.inputNames = List.copyOf(inputVars.keySet());
        this.outputVarNames = outputs.stream().map(SDVariable::name).toList();
        this.outputNames = List.copyOf(outputNames);
    }

    private static List<String> indexNames(int count) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(Integer.toString(i));
        }
        return names;
    }

    /** Records the op's attributes the spec left at their defaults (see {@link Differentiable}). */
    SameDiffFunction leftAtDefault(List<String> names) {
        leftAtDefault = List.copyOf(names);
        return this;
    }

    /** Declares what the one op it builds is affine in, by the op's definition. */
    SameDiffFunction affineIn(AffineInputs declared) {
        affine = declared;
        return this;
    }

    @Override
    public AffineInputs affineInputs() {
        return affine;
    }

    /** Feeds these placeholders at every forward and backward pass. */
    SameDiffFunction feeding(Map<String, INDArray> placeholders) {
        fed = Map.copyOf(placeholders);
        return this;
    }

    @Override
    public List<String> attributesLeftAtDefault() {
        return leftAtDefault;
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
        assign(inputs);
        Map<String, INDArray> raw = sd.output(fed, outputVarNames);
        Map<String, INDArray> out = new HashMap<>();
        for (int i = 0; i < outputNames.size(); i++) {
            out.put(outputNames.get(i), raw.get(outputVarNames.get(i)).dup());
        }
        return out;
    }

    @Override
    public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents, List<String> wrt) {
        assign(inputs);
        defineLossOnce(cotangents);
        Map<String, INDArray> placeholders = new HashMap<>(fed);
        for (int i = 0; i < outputNames.size(); i++) {
            INDArray c = cotangents.get(outputNames.get(i));
            if (c != null) {
                placeholders.put(COTANGENT_PREFIX + i, c);
            }
        }
        List<String> vars = wrt.stream().map(n -> inputVars.get(n).name()).toList();
        Map<String, INDArray> grads = sd.calculateGradients(placeholders, vars);
        Map<String, INDArray> out = new HashMap<>();
        for (String name : wrt) {
            INDArray g = grads.get(inputVars.get(name).name());
            if (g != null) {
                out.put(name, g.dup());
            }
        }
        return out;
    }

    /**
     * The bytes the graph's op outputs will take, from ND4J's shape functions, before anything runs: for each op
     * whose arguments are all inputs of the graph (so their arrays exist), its outputs' shapes and dtypes. Empty
     * when a shape function fails or says nothing; the forward pass then reports what is wrong.
     */
    @Override
    public OptionalLong plannedOutputBytes() {
        long total = 0;
        try {
            for (DifferentialFunction op : sd.ops()) {
                List<INDArray> args = new ArrayList<>();
                for (SDVariable v : op.args()) {
                    if (v.getVariableType() != VariableType.VARIABLE && v.getVariableType() != VariableType.CONSTANT) {
                        return OptionalLong.empty(); // fed by another op: its shape is not known yet
                    }
                    args.add(v.getArr());
                }
                List<LongShapeDescriptor> shapes;
                try (OpContext context = Nd4j.getExecutioner().buildContext()) {
                    context.setInputArrays(args);
                    if (op instanceof CustomOp custom) {
                        context.setIArguments(custom.iArgs());
                        context.setTArguments(custom.tArgs());
                        context.setBArguments(custom.bArgs());
                    }
                    shapes = op.calculateOutputShape(context);
                }
                if (shapes == null || shapes.isEmpty()) {
                    return OptionalLong.empty();
                }
                for (LongShapeDescriptor d : shapes) {
                    long n = d.isEmpty() ? 0 : MemoryBudget.length(d.getShape());
                    total = MemoryBudget.saturatingAdd(total, MemoryBudget.saturatingMul(n, d.dataType().width()));
                }
            }
        } catch (Exception e) { // a shape function that fails here fails the forward pass too, which says why
            return OptionalLong.empty();
        }
        return OptionalLong.of(total);
    }

    /**
     * Compares each input variable's array, after a forward, with the values it was given: an op running in place
     * on its input leaves it changed.
     */
    @Override
    public List<String> inputsChangedByForward(Map<String, INDArray> inputs) {
        List<String> changed = new ArrayList<>();
        for (Map.Entry<String, INDArray> e : inputs.entrySet()) {
            INDArray own = inputVars.get(e.getKey()).getArr();
            if (PlainArrays.sameBits(own, e.getValue())) {
                continue; // the same bits are the same doubles: the copies and casts below would say so too
            }
            if (!java.util.Arrays.equals(own.castTo(org.nd4j.linalg.api.buffer.DataType.DOUBLE).dup('c').data()
                    .asDouble(), e.getValue().castTo(org.nd4j.linalg.api.buffer.DataType.DOUBLE).dup('c').data()
                    .asDouble())) {
                changed.add(e.getKey());
            }
        }
        return changed;
    }

    /**
     * The backward as ops in this same SameDiff ({@link BackwardGraph}), fed cotangent variables, so that SameDiff
     * can differentiate it again: one op or a whole graph. Ops whose {@code doDiff} is built from differentiable
     * ops (exp, sin, log, ...) get a second-order backward this way; those whose backward is one opaque
     * {@code *_bp} kernel (tanh, matmul, softmax, ...) fail when it is differentiated, and the check says so.
     */
    @Override
    public Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
        DifferentialFunction[] forward = sd.ops(); // before any backward op is added
        List<String> produced = new ArrayList<>();
        for (DifferentialFunction op : forward) {
            for (SDVariable out : op.outputVariables()) {
                produced.add(out.name());
            }
        }
        Map<String, INDArray> values = sd.output(Map.of(), produced);
        Map<String, SDVariable> backwardInputs = new java.util.LinkedHashMap<>(inputVars);
        Map<String, SDVariable> seeds = new HashMap<>();
        for (int i = 0; i < outputNames.size(); i++) {
            if (outputs.contains(outputNames.get(i))) {
                INDArray yi = values.get(outputVarNames.get(i));
                SDVariable v = sd.var(COTANGENT_PREFIX + "v_" + i, Nd4j.zeros(yi.dataType(), yi.shape()));
                backwardInputs.put(Differentiable.cotangentName(outputNames.get(i)), v);
                seeds.put(outputVarNames.get(i), v);
            }
        }
        Map<String, SDVariable> all = BackwardGraph.reverse(sd, forward, seeds, values);
        List<SDVariable> grads = new ArrayList<>();
        for (String name : wrt) {
            SDVariable g = all.get(inputVars.get(name).name());
            if (g == null) {
                throw new UnsupportedOperationException("the backward gives input '" + name
                        + "' no gradient to differentiate");
            }
            grads.add(g);
        }
        return new SameDiffFunction(sd, backwardInputs, grads,
                wrt.stream().map(Differentiable::gradientName).toList());
    }


    SameDiff sameDiff() {
        return sd;
    }

    /** The graph variable behind a function input (its array is where inputs are assigned). */
    SDVariable inputVariable(String input) {
        return inputVars.get(input);
    }

    /** The graph variable behind each output, in {@link #outputNames} order. */
    List<String> outputVariableNames() {
        return outputVarNames;
    }

    /** The placeholder the loss reads output {@code index}'s cotangent from. */
    static String cotangentPlaceholder(int index) {
        return COTANGENT_PREFIX + index;
    }

    /**
     * The loss is added on first use: the forward-only graph stays as built. Cotangent outputs are fixed then.
     *
     * @return the outputs whose cotangents the loss reads, by index
     */
    List<Integer> defineLossOnce(Map<String, INDArray> cotangents) {
        if (!lossOutputs.isEmpty()) {
            return lossOutputs;
        }
        List<Integer> read = new ArrayList<>();
        SDVariable loss = null;
        for (int i = 0; i < outputNames.size(); i++) {
            INDArray c = cotangents.get(outputNames.get(i));
            if (c == null) {
                continue;
            }
            SDVariable out = sd.getVariable(outputVarNames.get(i));
            SDVariable ct = sd.placeHolder(COTANGENT_PREFIX + i, c.dataType(), c.shape());
            SDVariable term = out.mul(ct).sum();
            loss = loss == null ? term : loss.add(term);
            read.add(i);
        }
        if (loss == null) {
            throw new IllegalArgumentException("no cotangent for any output");
        }
        sd.setLossVariables(loss);
        lossOutputs.addAll(read);
        return lossOutputs;
    }

    void assign(Map<String, INDArray> inputs) {
        for (Map.Entry<String, INDArray> e : inputs.entrySet()) {
            SDVariable v = inputVars.get(e.getKey());
            if (v == null) {
                throw new IllegalArgumentException("no input named " + e.getKey());
            }
            PlainArrays.copy(v.getArr(), e.getValue());
        }
    }
}
