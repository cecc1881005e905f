package dev.gradcheck.check;

import dev.gradcheck.op.Differentiable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The op's own backward, one row at a time: row j of d out / d x is the vector-Jacobian product with a one-hot
 * cotangent at out_j (and zero cotangents on every other output). Only the requested rows are built when the
 * check samples.
 */
final class AnalyticJacobian {

    private AnalyticJacobian() {}

    /**
     * @param zeroCotangents one zero array per floating output, in that output's shape and dtype; the one for
     *                       {@code out} is set one-hot in turn and restored
     * @param rows           the flat output indices to build, or null for all
     * @return Jacobians keyed by input; an input the backward gives no gradient gets zero rows
     */
    static Map<String, Jacobian> compute(Differentiable f, Map<String, INDArray> inputs,
                                         Map<String, INDArray> zeroCotangents, String out, List<String> wrt,
                                         int[] rows, Counter backwardPasses) {
        INDArray cotangent = zeroCotangents.get(out);
        int m = rows == null ? Math.toIntExact(cotangent.length()) : rows.length;
        Map<String, double[][]> values = new HashMap<>();
        for (String in : wrt) {
            values.put(in, new double[m][Math.toIntExact(inputs.get(in).length())]);
        }
        for (int r = 0; r < m; r++) {
            int j = rows == null ? r : rows[r];
            cotangent.putScalar(j, 1.0);
            Map<String, INDArray> grads;
            try {
                grads = f.vjp(inputs, zeroCotangents, wrt);
            } finally {
                cotangent.putScalar(j, 0.0);
            }
            backwardPasses.add(1);
            for (String in : wrt) {
                INDArray g = grads.get(in);
                if (g != null) {
                    values.get(in)[r] = flatGradient(g, inputs.get(in), in);
                }
            }
        }
        Map<String, Jacobian> byInput = new HashMap<>();
        for (String in : wrt) {
            byInput.put(in, new Jacobian(cotangent.shape(), inputs.get(in).shape(), values.get(in), rows, null));
        }
        return byInput;
    }

    /** A gradient must have its input's shape; anything else is the backward's error, said plainly. */
    static double[] flatGradient(INDArray g, INDArray input, String name) {
        if (g.length() != input.length()) {
            throw new IllegalStateException("the backward returned a gradient of shape "
                    + Arrays.toString(g.shape()) + " for input '" + name + "' of shape "
                    + Arrays.toString(input.shape()));
        }
        return Flat.values(g);
    }
}
