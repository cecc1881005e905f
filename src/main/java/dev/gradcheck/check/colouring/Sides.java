package dev.gradcheck.check.colouring;

import dev.gradcheck.check.jacobian.AnalyticJacobian;
import dev.gradcheck.check.jacobian.NumericalJacobian;
import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.spec.Tolerance;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Both sides of a target's blocks, evaluable along weighted lines, and how their entries are judged. */
public record Sides(NumericalJacobian numerical, AnalyticJacobian analytic, CompressedJacobians.Judging judging) {

    /** Both sides of the given inputs' blocks, each input with the step each of its elements is moved by. */
    public static Sides of(CheckTarget t, Settings s, List<String> inputs) {
        Map<String, NumericalDerivative> derivatives = new HashMap<>();
        Map<String, double[]> steps = new HashMap<>();
        for (String in : inputs) {
            NumericalDerivative d = t.numerical(s, new Counter());
            derivatives.put(in, d);
            steps.put(in, steps(d, in));
        }
        Map<String, double[]> magnitudes = new HashMap<>();
        Map<String, Double> noise = new HashMap<>();
        t.outputs().forEach(out -> {
            magnitudes.put(out, t.magnitudes(out));
            noise.put(out, t.forwardNoise(out));
        });
        CompressedJudging judging = new CompressedJudging(s, noise, magnitudes, steps);
        NumericalJacobian numerical = new NumericalJacobian(derivatives, inputs, t.outputs(), t.outputShapes(),
                t.reference(), t.refInputs());
        AnalyticJacobian analytic = new AnalyticJacobian(t.test(), t.testInputs(), t.zeroCotangents(), t.outputs(),
                inputs);
        return new Sides(numerical, analytic, judging);
    }

    /** The step each element of an input is moved by. */
    private static double[] steps(NumericalDerivative d, String in) {
        double[] h = new double[Math.toIntExact(Flat.size(d.inputs().get(in).shape()))];
        for (int i = 0; i < h.length; i++) {
            h[i] = d.stepAt(in, i);
        }
        return h;
    }

    /** How compressed blocks are judged: by their output's rule, with the rounding bound of each numerical entry. */
    private record CompressedJudging(Settings s, Map<String, Double> noise, Map<String, double[]> magnitudes,
                                     Map<String, double[]> steps) implements CompressedJacobians.Judging {

        @Override
        public Tolerance rule(String out, String in, double blockScale) {
            return s.toleranceFor(noise.get(out), blockScale);
        }

        @Override
        public boolean ruleIgnoresScale(String out, String in) {
            return s.ruleIgnoresScale();
        }

        @Override
        public NumericalError errors(String out, String in) {
            return NumericalError.block(s.stencil(), magnitudes.get(out), steps.get(in));
        }
    }
}


