package com.example.softplus;

import dev.gradcheck.spi.Operator;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * The operator under test: y = log(1 + exp(x)), whose derivative is the logistic sigmoid. {@link #buggy()} has the
 * classic slip of using the derivative of exp instead (exp(x) instead of exp(x) / (1 + exp(x))).
 */
final class Softplus implements Operator {

    private final boolean buggy;

    private Softplus(boolean buggy) {
        this.buggy = buggy;
    }

    static Softplus correct() {
        return new Softplus(false);
    }

    static Softplus buggy() {
        return new Softplus(true);
    }

    @Override
    public String name() {
        return buggy ? "softplus_buggy" : "softplus";
    }

    @Override
    public List<String> inputNames() {
        return List.of("x");
    }

    @Override
    public List<String> outputNames() {
        return List.of("y");
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs, Map<String, Object> attrs) {
        return Map.of("y", Transforms.log(Transforms.exp(inputs.get("x"), true).addi(1), false));
    }

    @Override
    public Map<String, INDArray> backward(Map<String, INDArray> inputs, Map<String, INDArray> outputs,
                                          Map<String, INDArray> outputGradients, Map<String, Object> attrs) {
        INDArray x = inputs.get("x");
        INDArray slope = buggy ? Transforms.exp(x, true) : Transforms.sigmoid(x, true);
        return Map.of("x", outputGradients.get("y").mul(slope));
    }
}
