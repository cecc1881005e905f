package dev.gradcheck.check.jacobian;

import dev.gradcheck.op.Differentiable;
import java.util.List;
import java.util.Map;

/**
 * One side of a target's Jacobian blocks, evaluated along weighted lines: the analytic side by output rows (one
 * backward pass with cotangent Σ w_l·e_l on an output gives Σ w_l·row_l of every block of that output), the numerical
 * side by input columns (one derivative along Σ w_l·e_l of an input gives Σ w_l·column_l of every block of that
 * input). A unit is what one evaluation varies (an output, an input); its cross units are the blocks' other
 * dimension (the inputs, the outputs). A line alone with weight 1 is evaluated exactly as a dense check does.
 */
public interface JacobianSide {

    /** The outputs (analytic side) or the inputs (numerical side). */
    List<String> units();

    /** The inputs (analytic side) or the outputs (numerical side). */
    List<String> crossUnits();

    /** Rows of an output, or columns of an input. */
    int lineCount(String unit);

    /** The length of one line's values in a cross unit's block. */
    int crossLength(String crossUnit);

    /**
     * Σ_l a_l·line_l of {@code unit}, one flat vector per cross unit, where a = {@link #applied}(unit, lines,
     * weights): the weights themselves, unless this side scales them.
     *
     * @param lines distinct line indices, ascending
     */
    Map<String, double[]> evaluate(String unit, int[] lines, double[] weights);

    /**
     * The vectors of an {@link #evaluate} that its caller has read and will not touch again: the side may hand them
     * out again (nothing else may still hold them).
     */
    default void giveBack(Map<String, double[]> values) {
    }

    /**
     * The weights an evaluation of these lines with these weights applies to each line. The analytic side applies
     * them as given; the numerical side moves each element of a group by its own step times its weight, so it
     * applies each weight times its column's step over the group's largest (docs/checking.md, "Compressed
     * Jacobians").
     */
    default double[] applied(String unit, int[] lines, double[] weights) {
        return weights;
    }

    /**
     * How many bits after the point a weight may have so that the evaluation applies it exactly (the dtype the
     * weights are written in: a cotangent of the output's dtype, a float64 direction).
     */
    int weightBits(String unit);

    /** Evaluations spent so far on a unit (forward evaluations, or backward passes), by this side and its copies. */
    long evaluations(String unit);

    /**
     * This side over copies of its functions and of the arrays it writes, for another thread; it counts into the
     * same counters.
     */
    JacobianSide copy(ParallelLines.Copies copies);

    /** The functions it evaluates, which {@link #copy} copies. */
    List<Differentiable> functions();

    /** Lines one at a time, as the dense check computes them: task k is line {@code lines[k]} (or k), weight 1. */
    record Lines(JacobianSide side, String unit, int[] lines) implements ParallelLines.Evaluator<Map<String, double[]>> {
        @Override
        public Map<String, double[]> evaluate(int task) {
            return side.evaluate(unit, new int[] {lines == null ? task : lines[task]}, new double[] {1});
        }

        @Override
        public Lines copy(ParallelLines.Copies copies) {
            return new Lines(side.copy(copies), unit, lines);
        }

        @Override
        public List<Differentiable> functions() {
            return side.functions();
        }
    }
}
