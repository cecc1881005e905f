package dev.gradcheck.check.numeric;

import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The finite-difference step. By default it is relative, as in SciPy's approx_derivative: element i moves by
 * δ·max(1, |xᵢ|), so an input of 5000 moves by 5e-3 and its output's rounding, ε·|y|/h, shrinks with it (an
 * absolute 1e-6 there costs 1e-4 of noise when |y| ≈ 5e5). A spec's own {@code delta} is absolute, exactly as
 * written: every element moves by that much.
 *
 * @param delta       δ
 * @param relative    whether steps scale with the input's magnitude (the default) or are δ exactly (a spec's delta)
 * @param eachElement along a direction, whether t is the largest step that moves no element by more than its own
 *                    step (fast mode) rather than δ·max(1, largest |xᵢ|) (JVPs, Hessian-vector products, ties)
 */
public record Step(double delta, boolean relative, boolean eachElement) {

    public Step(double delta, boolean relative) {
        this(delta, relative, false);
    }

    /** The same step, taken along a direction so that its largest element moves by its own step. */
    Step eachElementAlong() {
        return new Step(delta, relative, true);
    }

    /** The step for an element whose value is {@code x}. */
    double at(double x) {
        return relative ? delta * Math.max(1, Math.abs(x)) : delta;
    }

    /**
     * The step t along a direction (x + t·u for each moved input). By default relative to the largest |xᵢ| the
     * direction moves, so that no moved element's own rounding swamps its share of the step. With
     * {@link #eachElement}, t = min over moved i of δ·max(1, |xᵢ|)/|uᵢ|: along a unit u over n elements, whose
     * largest |uᵢ| is about √(2 ln n / n), t is that many times larger (×57 at 65,536 elements), and the rounding
     * of φ′, which falls as 1/t, with it. An absolute step stays δ along any direction.
     */
    double along(Map<String, INDArray> inputs, Map<String, INDArray> directions) {
        if (!relative) {
            return delta;
        }
        double largest = 0;
        double steepest = 0;
        for (Map.Entry<String, INDArray> d : directions.entrySet()) {
            double[] u = Flat.values(d.getValue());
            double[] x = Flat.values(inputs.get(d.getKey()));
            for (int i = 0; i < u.length; i++) {
                if (u[i] != 0) {
                    largest = Math.max(largest, Math.abs(x[i]));
                    steepest = Math.max(steepest, Math.abs(u[i]) / Math.max(1, Math.abs(x[i])));
                }
            }
        }
        return eachElement && steepest > 0 ? delta / steepest : at(largest);
    }
}
