package dev.gradcheck.check;

import dev.gradcheck.check.full.FullCheck;
import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.EntryFilter;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.numeric.Seeded;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.op.ForwardMode;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Forward mode: an operator's own JVP along a random unit tangent u (per checked input, from the spec's seed)
 * against the numerical derivative along u, J_num·u, taken with the spec's stencil. One JVP and 2 forward
 * evaluations per checked input cover every output, in any mode. Rows have kind {@link CheckKind#JVP}; their
 * worst element is an output element.
 */
final class JvpCheck {

    private JvpCheck() {}

    static List<GradientResult> run(ForwardMode f, CheckTarget t, Settings s) {
        List<GradientResult> results = new ArrayList<>();
        for (String in : t.wrt()) {
            Meter start = Meter.timing();
            INDArray x = t.testInputs().get(in);
            INDArray u = Seeded.unit(s.seed(), "jvp-u:" + in, x.shape()).castTo(x.dataType());
            Counter evaluations = new Counter();
            // the reference moves along the same (rounded) tangent the operator sees
            NumericalDerivative derivative = t.numerical(s, evaluations);
            Map<String, INDArray> tangent = Map.of(in, u.castTo(DataType.DOUBLE));
            Map<String, double[]> numerical = derivative.along(tangent);
            double step = derivative.stepAlong(tangent);
            Map<String, INDArray> tangents = new LinkedHashMap<>();
            t.testInputs().forEach((name, a) -> {
                if (a.dataType().isFPType()) {
                    tangents.put(name, name.equals(in) ? u : Nd4j.zeros(a.dataType(), a.shape()));
                }
            });
            Map<String, INDArray> jvp = f.jvp(t.testInputs(), tangents);
            double seconds = start.seconds();
            for (String out : t.outputs()) {
                double[] analytic = Flat.values(jvp.get(out));
                double[] num = numerical.get(out);
                double[][] a = new double[num.length][1];
                double[][] n = new double[num.length][1];
                for (int j = 0; j < num.length; j++) {
                    a[j][0] = analytic[j];
                    n[j][0] = num[j];
                }
                long[] shape = t.refAtX().get(out).shape();
                Jacobian numericalBlock = new Jacobian(shape, new long[0], n);
                double[] magnitudes = t.magnitudes(out);
                NumericalError errors = (row, col) -> NumericalError.rounding(s.stencil(), magnitudes[row], step);
                JacobianComparison.Row row = JacobianComparison.compare(new Jacobian(shape, new long[0], a),
                        numericalBlock, errors, EntryFilter.NONE, new JacobianComparison.Criteria(
                                s.toleranceFor(t.forwardNoise(out), FullCheck.largestMagnitude(numericalBlock)),
                                s.delta(), t.scale(out)));
                results.add(row.toResult(new JacobianComparison.Compared(out, in, CheckKind.JVP, t.order()),
                        evaluations.value() + 1, seconds, row.errorNote(), null));
            }
        }
        return results;
    }
}
