package dev.gradcheck.result;

import java.util.Map;

/**
 * How far one backend's outputs and gradients are from another's on the same inputs ({@code --backend all}):
 * the largest absolute difference, and the largest relative one with Paddle's denominator (|reference|, or 1
 * where that is below 1e-3), each with where it is. Reported, not judged: the gradient check itself judges each
 * backend against the numerical gradient.
 *
 * @param against        the reference backend ("cpu")
 * @param maxOutputAbs   max |this - reference| over every floating output
 * @param maxOutputRel   max relative difference over the outputs
 * @param worstOutput    "output[flat index]" of the largest relative output difference, or "" when none
 * @param maxGradientAbs max |this - reference| over every checked input's gradient
 * @param maxGradientRel max relative difference over the gradients
 * @param worstGradient  "input[flat index]" of the largest relative gradient difference, or "" when none
 */
public record BackendDifference(String against, double maxOutputAbs, double maxOutputRel, String worstOutput,
                                double maxGradientAbs, double maxGradientRel, String worstGradient) {

    public static BackendDifference of(String against, BackendSample reference, BackendSample other) {
        Extremes outputs = Extremes.over(reference.outputs(), other.outputs());
        Extremes gradients = Extremes.over(reference.gradients(), other.gradients());
        return new BackendDifference(against, outputs.abs, outputs.rel, outputs.where, gradients.abs, gradients.rel,
                gradients.where);
    }

    private record Extremes(double abs, double rel, String where) {
        static Extremes over(Map<String, double[]> reference, Map<String, double[]> other) {
            double abs = 0;
            double rel = 0;
            String where = "";
            for (Map.Entry<String, double[]> e : reference.entrySet()) {
                double[] r = e.getValue();
                double[] o = other.get(e.getKey());
                if (o == null || o.length != r.length) { // a backend that drops an output differs completely
                    return new Extremes(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, e.getKey());
                }
                for (int i = 0; i < r.length; i++) {
                    double d = Math.abs(o[i] - r[i]);
                    double dRel = d / (Math.abs(r[i]) < 1e-3 ? 1 : Math.abs(r[i]));
                    if (Double.isNaN(d) && !(Double.isNaN(o[i]) && Double.isNaN(r[i]))) {
                        d = Double.POSITIVE_INFINITY; // NaN on one side only
                        dRel = d;
                    } else if (Double.isNaN(d)) {
                        d = 0; // NaN on both sides agrees; the check's own verdict reports the NaN
                        dRel = 0;
                    }
                    abs = Math.max(abs, d);
                    if (dRel > rel || where.isEmpty()) {
                        rel = Math.max(rel, dRel);
                        where = e.getKey() + "[" + i + "]";
                    }
                }
            }
            return new Extremes(abs, rel, where);
        }
    }
}
