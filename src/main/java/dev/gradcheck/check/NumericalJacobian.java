package dev.gradcheck.check;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The numerical Jacobian, column by column: column i of d out / d x is the derivative of every output along
 * x_i, taken with the spec's stencil on the float64 reference build (the reference is better than what it
 * judges). Only the requested columns are built when the check samples.
 */
final class NumericalJacobian {

    private NumericalJacobian() {}

    /**
     * @param cols the flat input indices to differentiate by, or null for all
     * @return one Jacobian per output, d output / d wrt
     */
    static Map<String, Jacobian> compute(NumericalDerivative numerical, long[] inputShape, String wrt,
                                         List<String> outputs, Map<String, long[]> outputShapes, int[] cols) {
        int n = cols == null ? Math.toIntExact(Flat.size(inputShape)) : cols.length;
        Map<String, double[][]> values = new HashMap<>();
        for (int c = 0; c < n; c++) {
            Map<String, double[]> column = numerical.alongElement(wrt, cols == null ? c : cols[c]);
            for (String out : outputs) {
                double[] d = column.get(out);
                double[][] v = values.computeIfAbsent(out, k -> new double[d.length][n]);
                for (int j = 0; j < d.length; j++) {
                    v[j][c] = d[j];
                }
            }
        }
        Map<String, Jacobian> result = new HashMap<>();
        for (String out : outputs) {
            long[] shape = outputShapes.get(out);
            double[][] v = values.getOrDefault(out, new double[Math.toIntExact(Flat.size(shape))][0]);
            result.put(out, new Jacobian(shape, inputShape, v, null, cols));
        }
        return result;
    }
}
