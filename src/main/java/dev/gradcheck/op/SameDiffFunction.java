package dev.gradcheck.op;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A {@link Differentiable} over a SameDiff graph whose inputs are variables (floating) or constants (integer).
 * The analytic side is SameDiff's own autodiff: a loss {@code Σ_k sum(c_k ⊙ out_k)} with the cotangents
 * {@code c_k} as placeholders, so one gradient function serves every one-hot row of the Jacobian.
 */
final class SameDiffFunction implements Differentiable {

    private static final String COTANGENT_PREFIX = "gradcheck_cotangent_";

    private final SameDiff sd;
    private final List<String> inputNames;
    private final Map<String, SDVariable> inputVars;
    private final List<String> outputNames;
    private final List<String> outputVarNames;
    private boolean lossDefined;

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
        Map<String, INDArray> raw = sd.output(Map.of(), outputVarNames);
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
        Map<String, INDArray> placeholders = new HashMap<>();
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

    /** The loss is added on first use: the forward-only graph stays as built. Cotangent outputs are fixed then. */
    private void defineLossOnce(Map<String, INDArray> cotangents) {
        if (lossDefined) {
            return;
        }
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
        }
        if (loss == null) {
            throw new IllegalArgumentException("no cotangent for any output");
        }
        sd.setLossVariables(loss);
        lossDefined = true;
    }

    private void assign(Map<String, INDArray> inputs) {
        for (Map.Entry<String, INDArray> e : inputs.entrySet()) {
            SDVariable v = inputVars.get(e.getKey());
            if (v == null) {
                throw new IllegalArgumentException("no input named " + e.getKey());
            }
            v.getArr().assign(e.getValue());
        }
    }
}
