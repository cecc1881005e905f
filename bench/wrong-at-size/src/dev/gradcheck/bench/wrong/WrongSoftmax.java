package dev.gradcheck.bench.wrong;

import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * softmax over dimension 1 of [batch, classes] with a backward made wrong on purpose, by the spec's {@code bug}
 * attribute: none; outside (x[50, 11] picks up 1e-4 of output [2, 5]'s cotangent, another batch row's); swaprows
 * (the cotangent's [3, 7] and [40, 7] trade places: two rows of the Jacobian swapped across the batch).
 */
public class WrongSoftmax extends WrongUnary {

    @Override
    public String name() {
        return "bench_wrong_softmax";
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs, Map<String, Object> attrs) {
        return Map.of("y", Transforms.softmax(inputs.get("x"), true));
    }

    @Override
    public Map<String, INDArray> backward(Map<String, INDArray> inputs, Map<String, INDArray> outputs,
                                          Map<String, INDArray> outputGradients, Map<String, Object> attrs) {
        String bug = String.valueOf(attrs.getOrDefault("bug", "none"));
        INDArray y = Transforms.softmax(inputs.get("x"), true);
        INDArray gy = outputGradients.get("y").dup();
        if (bug.equals("swaprows")) {
            double a = gy.getDouble(3, 7);
            gy.putScalar(new long[] {3, 7}, gy.getDouble(40, 7));
            gy.putScalar(new long[] {40, 7}, a);
        }
        INDArray gx = y.mul(gy.subColumnVector(gy.mul(y).sum(true, 1)));
        if (bug.equals("outside")) {
            gx.putScalar(new long[] {50, 11}, gx.getDouble(50, 11) + 1e-4 * outputGradients.get("y").getDouble(2, 5));
        }
        return Map.of("x", gx);
    }
}
