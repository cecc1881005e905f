package dev.gradcheck.check;

import dev.gradcheck.op.Differentiable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The op's own backward, one row at a time: row j of d out / d x is the vector-Jacobian product with a one-hot
 * cotangent at out_j (and zero cotangents on every other output).
 */
final class AnalyticJacobian {

    private AnalyticJacobian() {}

    /**
     * @param zeroCotangents one zero array per floating output, in that output's shape and dtype; each is set
     *                       one-hot in turn and restored
     * @param outputs        the outputs whose rows to build
     * @return Jacobians keyed by output then input; an input the backward gives no gradient gets zero rows
     */
    static Map<String, Map<String, Jacobian>> compute(Differentiable f, Map<String, INDArray> inputs,
                                                      Map<String, INDArray> zeroCotangents, List<String> outputs,
                                                      List<String> wrt, Counter backwardPasses) {
        Map<String, Map<String, Jacobian>> result = new HashMap<>();
        for (String out : outputs) {
            INDArray cotangent = zeroCotangents.get(out);
            int m = Math.toIntExact(cotangent.length());
            Map<String, double[][]> rows = new HashMap<>();
            for (String in : wrt) {
                rows.put(in, new double[m][Math.toIntExact(inputs.get(in).length())]);
            }
            for (int j = 0; j < m; j++) {
                cotangent.putScalar(j, 1.0);
                Map<String, INDArray> grads = f.vjp(inputs, zeroCotangents, wrt);
                cotangent.putScalar(j, 0.0);
                backwardPasses.add(1);
                for (String in : wrt) {
                    INDArray g = grads.get(in);
                    if (g != null) {
                        if (g.length() != inputs.get(in).length()) {
                            throw new IllegalStateException("the backward returned a gradient of shape "
                                    + java.util.Arrays.toString(g.shape()) + " for input '" + in + "' of shape "
                                    + java.util.Arrays.toString(inputs.get(in).shape()));
                        }
                        rows.get(in)[j] = Flat.values(g);
                    }
                }
            }
            Map<String, Jacobian> byInput = new HashMap<>();
            for (String in : wrt) {
                byInput.put(in, new Jacobian(cotangent.shape(), inputs.get(in).shape(), rows.get(in)));
            }
            result.put(out, byInput);
        }
        return result;
    }
}
