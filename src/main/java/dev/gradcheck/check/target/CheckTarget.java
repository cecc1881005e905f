package dev.gradcheck.check.target;

import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.Precision;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jTypes;
import dev.gradcheck.op.catalog.AffineInputs;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * What one pass of the checker compares: the build under test (its backward is judged) and the float64 reference
 * (differentiated numerically), at given input values. For order 2 the same shape of thing describes the
 * backward itself as a function, so every mode serves both orders.
 *
 * @param order      1, or 2 when the functions are backwards
 * @param test       the build under test
 * @param reference  the float64 build, or {@code test} itself when that is already float64
 * @param testInputs input values in the test build's dtypes
 * @param refInputs  the same values in float64 (integer inputs unchanged); perturbed in place and restored
 * @param wrt        the inputs checked
 * @param outputs    the outputs checked
 * @param testAtX    the test build's outputs at the inputs (every output, so cotangents can be shaped)
 * @param refAtX     the reference's outputs at the inputs
 * @param affine     the inputs the reference's forward is affine in by its op's definition (plain data: a name
 *                   and input names), where full mode takes near entries at a larger step; none for order 2
 */
public record CheckTarget(int order, Differentiable test, Differentiable reference, Map<String, INDArray> testInputs,
                   Map<String, INDArray> refInputs, List<String> wrt, List<String> outputs,
                   Map<String, INDArray> testAtX, Map<String, INDArray> refAtX, AffineInputs affine) {

    /** One zero array per floating output of the test build, in its shape and dtype. */
    public Map<String, INDArray> zeroCotangents() {
        return cotangents(null, null);
    }

    /**
     * {@link #zeroCotangents()} with {@code out}'s zeros replaced by {@code c} in that output's dtype: the
     * cotangents of one output's backward pass, without the zero array the replacement would throw away (an
     * allocation and a fill per pass; fast mode makes two such passes per check).
     */
    public Map<String, INDArray> cotangentsOn(String out, INDArray c) {
        Map<String, INDArray> cotangents = cotangents(out, c);
        if (!cotangents.containsKey(out)) {
            throw new IllegalArgumentException("output " + out + " has no floating cotangent");
        }
        return cotangents;
    }

    /** Per floating output, {@code c} cast to its dtype on output {@code on} (none: null), zeros elsewhere. */
    private Map<String, INDArray> cotangents(String on, INDArray c) {
        Map<String, INDArray> cotangents = new LinkedHashMap<>();
        for (String name : test.outputNames()) {
            INDArray y = testAtX.get(name);
            if (y != null && y.dataType().isFPType()) {
                cotangents.put(name, name.equals(on) ? c.castTo(y.dataType()) : Nd4j.zeros(y.dataType(), y.shape()));
            }
        }
        return cotangents;
    }

    /**
     * The largest |y| of an output, which sets the finite-difference noise floor. Found in Java (ND4J's amax makes
     * an op and a result array: more than the loop costs), except where a NaN is: then ND4J's amax decides, as
     * it always has (a NaN's place among the comparisons decides its answer).
     */
    public double scale(String out) {
        INDArray y = refAtX.get(out);
        if (y.length() == 0) {
            return 0;
        }
        double largest = 0;
        for (double v : Flat.values(y)) {
            if (Double.isNaN(v)) {
                return Math.abs(y.castTo(DataType.DOUBLE).amaxNumber().doubleValue());
            }
            largest = Math.max(largest, Math.abs(v));
        }
        return largest;
    }

    /**
     * The noise the dtype under test puts into this op's forward beyond rounding its results: max over the output
     * of |y − y₆₄| − ε·|y₆₄| (ε of the output's dtype: one unit of rounding each element may take), relative to the
     * output's largest |y₆₄|. Measured for free: both forwards exist already. An elementwise op (exp, tanh) shows
     * none; one whose arithmetic cancels in this dtype (layer norm on near-constant rows: x − mean) shows how much.
     * 0 when the build under test is the reference; NaN when its output is not finite where the reference's is.
     */
    public double forwardNoise(String out) {
        if (test == reference) {
            return 0;
        }
        INDArray under = testAtX.get(out);
        // a float64 output rounds as the reference does: all its difference from the reference is noise
        double eps = under.dataType() == DataType.DOUBLE ? 0
                : Nd4jTypes.toSpec(under.dataType()).map(Precision::epsilon).orElse(0.0);
        double[] y = Flat.values(under);
        double[] ref = Flat.values(refAtX.get(out));
        double largest = 0;
        double excess = 0;
        for (int j = 0; j < ref.length; j++) {
            if (!Double.isFinite(y[j]) && Double.isFinite(ref[j])) {
                return Double.NaN;
            }
            largest = Math.max(largest, Double.isFinite(ref[j]) ? Math.abs(ref[j]) : 0);
            double d = Math.abs(y[j] - ref[j]) - eps * Math.abs(ref[j]);
            excess = Double.isFinite(d) ? Math.max(excess, d) : excess;
        }
        return excess == 0 ? 0 : excess / largest;
    }

    /** One backward pass of the build under test at x, each gradient read out at once (absent where it gave none). */
    public Map<String, double[]> gradients(Map<String, INDArray> cotangents) {
        Map<String, INDArray> grads = test.vjpTransient(testInputs, cotangents, wrt);
        Map<String, double[]> flat = new LinkedHashMap<>();
        for (String in : wrt) {
            INDArray g = grads.get(in);
            if (g != null) {
                flat.put(in, Flat.values(g));
            }
        }
        return flat;
    }

    /** |y| of every element of an output of the reference, flat: the magnitudes its rounding is relative to. */
    public double[] magnitudes(String out) {
        double[] y = Flat.values(refAtX.get(out));
        for (int j = 0; j < y.length; j++) {
            y[j] = Math.abs(y[j]);
        }
        return y;
    }

    public Map<String, long[]> outputShapes() {
        Map<String, long[]> shapes = new HashMap<>();
        outputs.forEach(out -> shapes.put(out, refAtX.get(out).shape()));
        return shapes;
    }

    public NumericalDerivative numerical(Settings s, Counter evaluations) {
        return new NumericalDerivative(reference, refInputs, refAtX, outputs,
                new NumericalDerivative.Scheme(s.stencil(), s.step()), evaluations);
    }
}
