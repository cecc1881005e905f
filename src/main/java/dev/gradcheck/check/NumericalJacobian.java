package dev.gradcheck.check;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.GraphFunction;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Central differences: column i of J is (f(x + δ·e_i) − f(x − δ·e_i)) / 2δ. The function should be the float64
 * reference build of the op, so the reference is better than what it judges.
 */
final class NumericalJacobian {

    private NumericalJacobian() {}

    /**
     * @param inputs  float64 input values; {@code wrt}'s array is perturbed in place and restored exactly
     * @param outputs the outputs to differentiate
     * @return one Jacobian per output, d output / d wrt
     */
    static Map<String, Jacobian> compute(Differentiable f, Map<String, INDArray> inputs, String wrt,
                                         List<String> outputs, double delta, Counter evaluations) {
        if (SplitNumericalJacobian.applies(f)) { // a clip changes the backward, not the forward
            return SplitNumericalJacobian.compute((GraphFunction) f, inputs, wrt, delta, evaluations);
        }
        INDArray x = inputs.get(wrt);
        int n = Math.toIntExact(x.length());
        Map<String, double[][]> columnsByOutput = new HashMap<>();
        Map<String, long[]> outputShapes = new HashMap<>();
        for (int i = 0; i < n; i++) {
            double xi = x.getDouble(i);
            x.putScalar(i, xi + delta);
            Map<String, INDArray> plus = f.forward(inputs);
            x.putScalar(i, xi - delta);
            Map<String, INDArray> minus = f.forward(inputs);
            x.putScalar(i, xi);
            evaluations.add(2);
            for (String out : outputs) {
                double[] yp = Flat.values(plus.get(out));
                double[] ym = Flat.values(minus.get(out));
                double[][] cols = columnsByOutput.computeIfAbsent(out, k -> new double[yp.length][n]);
                outputShapes.putIfAbsent(out, plus.get(out).shape());
                for (int j = 0; j < yp.length; j++) {
                    cols[j][i] = (yp[j] - ym[j]) / (2 * delta);
                }
            }
        }
        Map<String, Jacobian> result = new HashMap<>();
        for (String out : outputs) {
            double[][] values = columnsByOutput.getOrDefault(out, new double[0][n]);
            result.put(out, new Jacobian(outputShapes.getOrDefault(out, new long[] {0}), x.shape(), values));
        }
        return result;
    }
}
