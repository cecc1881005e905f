package dev.gradcheck.op;

import java.util.HashMap;
import java.util.Map;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A forward SameDiff graph's backward, added to the same graph as ordinary ops: reverse mode over each op's own
 * {@code doDiff}, summing the gradients of a variable read by several ops. SameDiff can then differentiate the
 * result again, which its own route ({@code createGradFunction}) cannot: that seeds the backward through
 * {@code mul_bp}, which has no gradient. Ops whose {@code doDiff} is one opaque {@code *_bp} kernel still fail when
 * the result is differentiated; the order-2 check says so.
 */
final class BackwardGraph {

    private static final String ZERO_PREFIX = "gradcheck_zero_";

    private BackwardGraph() {}

    /**
     * @param forward the graph's forward ops in the order they were added (a topological order)
     * @param seeds   variable name → the gradient flowing into it from outside (the cotangents)
     * @param values  every forward variable's value, for the zero gradients of outputs nothing reads
     * @return variable name → its gradient, for every variable the seeds reach
     */
    static Map<String, SDVariable> reverse(SameDiff sd, DifferentialFunction[] forward, Map<String, SDVariable> seeds,
                                           Map<String, INDArray> values) {
        Map<String, SDVariable> grads = new HashMap<>(seeds);
        for (int k = forward.length - 1; k >= 0; k--) {
            DifferentialFunction op = forward[k];
            SDVariable[] outputs = op.outputVariables();
            if (java.util.Arrays.stream(outputs).noneMatch(o -> grads.containsKey(o.name()))) {
                continue; // nothing downstream of this op is differentiated
            }
            java.util.List<SDVariable> outputGrads = new java.util.ArrayList<>();
            for (SDVariable out : outputs) {
                SDVariable g = grads.get(out.name());
                if (g == null) {
                    INDArray y = values.get(out.name());
                    g = sd.constant(ZERO_PREFIX + out.name(), Nd4j.zeros(y.dataType(), y.shape()));
                }
                outputGrads.add(g);
            }
            java.util.List<SDVariable> argGrads = op.doDiff(outputGrads);
            SDVariable[] args = op.args();
            for (int i = 0; i < args.length && i < argGrads.size(); i++) {
                SDVariable g = argGrads.get(i);
                if (g != null) {
                    grads.merge(args[i].name(), g, SDVariable::add);
                }
            }
        }
        return grads;
    }
}
