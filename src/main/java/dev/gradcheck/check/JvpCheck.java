package dev.gradcheck.check;

import dev.gradcheck.op.ForwardMode;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Forward mode: an operator's own JVP along a random unit tangent u, against the numerical Jacobian times u. One
 * JVP per checked input covers every output; the numerical Jacobian is the one the backward was judged by. A
 * block is named {@code <input>·u} (so the table shows {@code dy/dx·u}), and its worst element is an output
 * element.
 */
final class JvpCheck {

    private JvpCheck() {}

    static List<GradientResult> compare(ForwardMode f, Map<String, INDArray> inputs, List<String> wrt,
                                        List<String> outputs, Map<String, Map<String, Jacobian>> numerical,
                                        Map<String, INDArray> yRef, long seed, Tolerance tolerance, double delta) {
        List<GradientResult> results = new ArrayList<>();
        for (String in : wrt) {
            long start = System.nanoTime();
            INDArray x = inputs.get(in);
            INDArray u = unitTangent(x, seed, in);
            Map<String, INDArray> tangents = new LinkedHashMap<>();
            inputs.forEach((name, a) -> {
                if (a.dataType().isFPType()) {
                    tangents.put(name, name.equals(in) ? u : Nd4j.zeros(a.dataType(), a.shape()));
                }
            });
            Map<String, INDArray> jvp = f.jvp(inputs, tangents);
            double seconds = (System.nanoTime() - start) / 1e9;
            double[] uValues = Flat.values(u); // as rounded to the dtype under test, which the JVP saw
            for (String out : outputs) {
                Jacobian num = numerical.get(in).get(out);
                double[] analytic = Flat.values(jvp.get(out));
                double[][] a = new double[num.rows()][1];
                double[][] n = new double[num.rows()][1];
                for (int j = 0; j < num.rows(); j++) {
                    a[j][0] = analytic[j];
                    for (int i = 0; i < num.cols(); i++) {
                        n[j][0] += num.values()[j][i] * uValues[i];
                    }
                }
                double scale = yRef.get(out).length() == 0 ? 0
                        : Math.abs(yRef.get(out).castTo(DataType.DOUBLE).amaxNumber().doubleValue());
                long[] none = new long[0];
                results.add(JacobianComparison.compare(out, in + "·u", new Jacobian(num.outputShape(), none, a),
                        new Jacobian(num.outputShape(), none, n), tolerance, delta, scale, 1, seconds));
            }
        }
        return results;
    }

    /** A random direction of length 1, from the spec's seed and the input's name (reproducible). */
    private static INDArray unitTangent(INDArray x, long seed, String name) {
        SplittableRandom rnd = new SplittableRandom(seed * 31 + name.hashCode() + 0x7A5L);
        double[] u = new double[Math.toIntExact(x.length())];
        double norm = 0;
        for (int i = 0; i < u.length; i++) {
            u[i] = rnd.nextDouble(-1, 1);
            norm += u[i] * u[i];
        }
        norm = Math.sqrt(norm);
        for (int i = 0; i < u.length; i++) {
            u[i] = norm == 0 ? 0 : u[i] / norm;
        }
        return Nd4j.createFromArray(u).reshape('c', x.shape()).castTo(x.dataType());
    }
}
