package dev.gradcheck.bench.wrong;

import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * tanh with a backward made wrong on purpose, by the spec's {@code bug} attribute: none; outside (a nonzero where the
 * Jacobian is zero: the last element but six picks up 1e-4 of output 2's cotangent); swap (gradient elements 5 and
 * n/2 trade places); scaled (every entry times 1 + 1e-3); transposed (the gradient of a square input transposed).
 */
public class WrongTanh extends WrongUnary {

    @Override
    public String name() {
        return "bench_wrong_tanh";
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs, Map<String, Object> attrs) {
        return Map.of("y", Transforms.tanh(inputs.get("x"), true));
    }

    @Override
    public Map<String, INDArray> backward(Map<String, INDArray> inputs, Map<String, INDArray> outputs,
                                          Map<String, INDArray> outputGradients, Map<String, Object> attrs) {
        INDArray y = Transforms.tanh(inputs.get("x"), true);
        INDArray gy = outputGradients.get("y");
        INDArray gx = gy.mul(y.mul(y).rsubi(1.0));
        long n = gx.length();
        INDArray flat = gx.reshape(n);
        switch (String.valueOf(attrs.getOrDefault("bug", "none"))) {
            case "outside" -> flat.putScalar(n - 7, flat.getDouble(n - 7) + 1e-4 * gy.reshape(n).getDouble(2));
            case "swap" -> {
                double a = flat.getDouble(5);
                flat.putScalar(5, flat.getDouble(n / 2));
                flat.putScalar(n / 2, a);
            }
            case "scaled" -> flat.muli(1 + 1e-3);
            case "transposed" -> {
                return Map.of("x", gx.transpose().dup('c'));
            }
            default -> { }
        }
        return Map.of("x", flat.reshape(gx.shape()));
    }
}
