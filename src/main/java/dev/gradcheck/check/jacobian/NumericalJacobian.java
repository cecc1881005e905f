package dev.gradcheck.check.jacobian;

import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.Precision;
import dev.gradcheck.check.numeric.VectorPool;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.spec.DType;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The numerical Jacobian, column by column: column i of d out / d x is the derivative of every output along
 * x_i, taken with the spec's stencil on the float64 reference build (the reference is better than what it
 * judges). Only the requested columns are built when the check samples. As a {@link JacobianSide}, the derivative
 * along Σ w_i·e_i gives Σ w_i·column_i of every block of that input in one stencil's evaluations.
 */
public final class NumericalJacobian implements JacobianSide {

    private final Map<String, NumericalDerivative> derivatives;
    private final Map<String, long[]> inputShapes = new HashMap<>();
    private final List<String> wrt;
    private final List<String> outputs;
    private final Map<String, long[]> outputShapes;
    private final Differentiable reference;
    /** The inputs as they were before any evaluation: the arrays the derivatives perturb change meanwhile. */
    private final Map<String, INDArray> unperturbed;
    /** Where the vectors {@link #evaluate} returns come from and go back to: shared with this side's copies. */
    private VectorPool pool = VectorPool.reusing();
    /**
     * Per input, the direction a group of columns is differentiated along: zero but for the group's elements while
     * it is taken, so that a difference makes no input-sized vector (this side's own: a copy has its own).
     */
    private final Map<String, INDArray> directions = new HashMap<>();

    /**
     * @param derivatives     one derivative of {@code reference} per input in {@code wrt}, each counting its
     *                        evaluations (what {@link #evaluations} tells)
     * @param referenceInputs the arrays the derivatives perturb (every input of the reference)
     */
    public NumericalJacobian(Map<String, NumericalDerivative> derivatives, List<String> wrt, List<String> outputs,
                      Map<String, long[]> outputShapes, Differentiable reference,
                      Map<String, INDArray> referenceInputs) {
        this.derivatives = derivatives;
        this.wrt = wrt;
        this.outputs = outputs;
        this.outputShapes = outputShapes;
        this.reference = reference;
        wrt.forEach(in -> inputShapes.put(in, referenceInputs.get(in).shape()));
        this.unperturbed = new LinkedHashMap<>();
        referenceInputs.forEach((name, x) -> unperturbed.put(name, x.dup()));
    }

    /**
     * Over a copy of the reference and of the input arrays it perturbs (taken from the inputs before any evaluation,
     * since this side's may be moved by δ while it evaluates on the calling thread), counting into the same
     * counters.
     */
    @Override
    public NumericalJacobian copy(ParallelLines.Copies copies) {
        Differentiable f = copies.of(reference);
        Map<String, INDArray> inputs = new LinkedHashMap<>();
        unperturbed.forEach((name, x) -> inputs.put(name, x.dup()));
        Map<String, NumericalDerivative> copied = new HashMap<>();
        derivatives.forEach((in, d) -> copied.put(in, d.on(f, inputs)));
        NumericalJacobian copy = new NumericalJacobian(copied, wrt, outputs, outputShapes, f, inputs);
        copy.pool = pool;
        return copy;
    }

    @Override
    public List<Differentiable> functions() {
        return List.of(reference);
    }

    /**
     * @param wrt  the input differentiated by
     * @param cols the flat input indices to differentiate by, or null for all
     * @return one Jacobian per output, d output / d wrt
     */
    public static Map<String, Jacobian> compute(NumericalDerivative numerical, String wrt, List<String> outputs,
                                         Map<String, long[]> outputShapes, int[] cols) {
        return compute(numerical, wrt, outputs, outputShapes, cols, null);
    }

    /**
     * The same, on several threads when {@code threads} is given (each over a copy of the function differentiated
     * and of the arrays the derivative perturbs).
     */
    public static Map<String, Jacobian> compute(NumericalDerivative numerical, String wrt, List<String> outputs,
                                         Map<String, long[]> outputShapes, int[] cols, ParallelLines threads) {
        long[] inputShape = numerical.inputs().get(wrt).shape();
        int n = cols == null ? Math.toIntExact(Flat.size(inputShape)) : cols.length;
        Map<String, double[][]> values = new HashMap<>();
        List<Map<String, double[]>> columns = threads == null ? null : threads.run(n, new JacobianSide.Lines(
                new NumericalJacobian(Map.of(wrt, numerical), List.of(wrt), outputs, outputShapes,
                        numerical.function(), numerical.inputs()), wrt, cols));
        for (int c = 0; c < n; c++) {
            Map<String, double[]> column = columns != null ? columns.get(c)
                    : numerical.alongElement(wrt, cols == null ? c : cols[c]);
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

    /** The shape of an input differentiated by. */
    public long[] inputShape(String in) {
        return inputShapes.get(in);
    }

    /** The shape of an output. */
    public long[] outputShape(String out) {
        return outputShapes.get(out);
    }

    @Override
    public List<String> units() {
        return wrt;
    }

    @Override
    public List<String> crossUnits() {
        return outputs;
    }

    @Override
    public int lineCount(String in) {
        return Math.toIntExact(Flat.size(inputShapes.get(in)));
    }

    @Override
    public int crossLength(String out) {
        return Math.toIntExact(Flat.size(outputShapes.get(out)));
    }

    /**
     * One column alone with weight 1 is differentiated exactly as a dense check does (x_i moved by ±h_i, its own
     * step); a weighted set of columns is differentiated along the direction Σ a_i·e_i with the step H, the
     * largest h_i of the group, so that x_i moves by ±w_i·h_i: each element by its own step times its weight, as
     * a dense check would move it (up to the weight in [1, 2]), and the result is Σ a_i·column_i with
     * a_i = w_i·h_i/H ({@link #applied}).
     */
    @Override
    public Map<String, double[]> evaluate(String in, int[] lines, double[] weights) {
        return points(in, lines, weights).combine(pool);
    }

    /**
     * As {@link #evaluate}, the outputs at the stencil's points themselves, in vectors of this side's pool: the
     * caller's to combine ({@link #derivative(NumericalDerivative.Points, String)}) and give back.
     */
    public NumericalDerivative.Points points(String in, int[] lines, double[] weights) {
        NumericalDerivative d = derivatives.get(in);
        if (lines.length == 1 && weights[0] == 1) {
            return d.pointsAlongElement(in, lines[0], pool);
        }
        double[] a = applied(in, lines, weights);
        INDArray u = directions.computeIfAbsent(in, k -> Flat.array(new double[lineCount(k)], inputShapes.get(k)));
        try {
            for (int k = 0; k < lines.length; k++) {
                u.putScalar(lines[k], a[k]);
            }
            return d.pointsAlong(Map.of(in, u), largestStep(d, in, lines), pool);
        } finally {
            for (int line : lines) {
                u.putScalar(line, 0.0);
            }
        }
    }

    /** An output's derivative from {@link #points}, in a vector of this side's pool (to give back). */
    public double[] derivative(NumericalDerivative.Points points, String out) {
        return points.derivative(out, pool);
    }

    /** Points read and done with: their vectors are handed out again. */
    public void giveBack(NumericalDerivative.Points points) {
        points.giveBack(pool);
    }

    /** The vectors of an evaluation read and done with: they are handed out again. */
    @Override
    public void giveBack(Map<String, double[]> values) {
        values.values().forEach(pool::giveBack);
    }

    /**
     * w_i·(h_i/H): with an absolute step (a spec's delta) every h_i/H is exactly 1 and the weights are applied as
     * drawn.
     */
    @Override
    public double[] applied(String in, int[] lines, double[] weights) {
        NumericalDerivative d = derivatives.get(in);
        double largest = largestStep(d, in, lines);
        double[] a = new double[lines.length];
        for (int k = 0; k < lines.length; k++) {
            a[k] = weights[k] * (d.stepAt(in, lines[k]) / largest);
        }
        return a;
    }

    private static double largestStep(NumericalDerivative d, String in, int[] lines) {
        double largest = 0;
        for (int l : lines) {
            largest = Math.max(largest, d.stepAt(in, l));
        }
        return largest;
    }

    /** Directions are float64 arrays. */
    @Override
    public int weightBits(String in) {
        return Precision.mantissaBits(DType.FLOAT64);
    }

    @Override
    public long evaluations(String in) {
        return derivatives.get(in).evaluations();
    }

    /** The derivative of one input, for kink probes. */
    public NumericalDerivative derivative(String in) {
        return derivatives.get(in);
    }
}
