package dev.gradcheck.check;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.BackendSample;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Takes a backend's {@link BackendSample} of a spec: the forward outputs and one backward pass, a vector-Jacobian
 * product with a cotangent drawn from the spec's seed. Inputs and cotangent are generated in plain Java, so every
 * backend sees the same numbers and any difference is the engine's.
 */
public final class BackendSampler {

    private BackendSampler() {}

    public static BackendSample take(FunctionFactory factory, OpSpec spec) throws InvalidSpecException {
        Map<String, INDArray> inputs = DrawnInputs.underTest(spec, spec.seed());
        try (Differentiable f = factory.build(spec, inputs)) {
            Map<String, INDArray> y = f.forward(inputs);
            Map<String, double[]> outputs = new LinkedHashMap<>();
            Map<String, INDArray> cotangents = new LinkedHashMap<>();
            SplittableRandom random = new SplittableRandom(spec.seed());
            for (String out : f.outputNames()) {
                INDArray value = y.get(out);
                if (value.dataType().isFPType()) {
                    outputs.put(out, flat(value));
                    double[] c = random.doubles(value.length(), -1, 1).toArray();
                    cotangents.put(out, Nd4j.createFromArray(c).reshape('c', value.shape()).castTo(value.dataType()));
                }
            }
            Map<String, double[]> gradients = new LinkedHashMap<>();
            f.vjp(inputs, cotangents, spec.check()).forEach((name, g) -> gradients.put(name, flat(g)));
            return new BackendSample(outputs, gradients);
        }
    }

    private static double[] flat(INDArray a) {
        return a.castTo(DataType.DOUBLE).dup('c').data().asDouble();
    }
}
