package dev.gradcheck.check;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.Stencil;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Differentiates the reference function numerically along one input element or along a direction across inputs,
 * with the spec's stencil. Inputs are perturbed in place and restored exactly. Every evaluation's outputs must keep
 * the shape and dtype they had at x: if one does not, the outputs are not a function the checker can
 * differentiate, and {@link UnstableOutputException} says where.
 */
final class NumericalDerivative {

    private final Differentiable f;
    private final Map<String, INDArray> inputs;
    private final List<String> outputs;
    private final Stencil stencil;
    private final double delta;
    private final Counter evaluations;
    private final Map<String, long[]> shapes = new HashMap<>();
    private final Map<String, DataType> dtypes = new HashMap<>();

    /** @param atX the function's outputs at the unperturbed inputs, whose shapes and dtypes must hold */
    NumericalDerivative(Differentiable f, Map<String, INDArray> inputs, Map<String, INDArray> atX,
                        List<String> outputs, Stencil stencil, double delta, Counter evaluations) {
        this.f = f;
        this.inputs = inputs;
        this.outputs = new java.util.ArrayList<>(outputs);
        this.stencil = stencil;
        this.delta = delta;
        this.evaluations = evaluations;
        for (String out : outputs) {
            shapes.put(out, atX.get(out).shape());
            dtypes.put(out, atX.get(out).dataType());
        }
    }

    double delta() {
        return delta;
    }

    /** The arrays this derivative perturbs in place (and restores). */
    Map<String, INDArray> inputs() {
        return inputs;
    }

    /**
     * The same derivative of another function (a copy, for another thread) over other input arrays, counting into
     * the same counter.
     */
    NumericalDerivative on(Differentiable other, Map<String, INDArray> otherInputs) {
        NumericalDerivative d = new NumericalDerivative(other, otherInputs, Map.of(), List.of(), stencil, delta,
                evaluations);
        return d.expecting(outputs, shapes, dtypes);
    }

    private NumericalDerivative expecting(List<String> outs, Map<String, long[]> outShapes,
                                          Map<String, DataType> outDtypes) {
        this.outputs.addAll(outs);
        shapes.putAll(outShapes);
        dtypes.putAll(outDtypes);
        return this;
    }

    /** d outputs / d input[i], flat per output. */
    Map<String, double[]> alongElement(String input, int i) {
        double[] offsets = FiniteDifferences.offsets(stencil);
        double[][][] values = new double[outputs.size()][offsets.length][];
        for (int k = 0; k < offsets.length; k++) {
            Map<String, INDArray> y = atElement(input, i, offsets[k] * delta);
            for (int o = 0; o < outputs.size(); o++) {
                values[o][k] = Flat.values(y.get(outputs.get(o)));
            }
        }
        return combine(values);
    }

    /** d/dt outputs(x + t·u), flat per output; inputs without a direction stay put. */
    Map<String, double[]> along(Map<String, INDArray> directions) {
        Map<String, INDArray> origin = new HashMap<>();
        directions.keySet().forEach(name -> origin.put(name, inputs.get(name).dup()));
        double[] offsets = FiniteDifferences.offsets(stencil);
        double[][][] values = new double[outputs.size()][offsets.length][];
        try {
            for (int k = 0; k < offsets.length; k++) {
                double t = offsets[k] * delta;
                directions.forEach((name, u) -> inputs.get(name).assign(origin.get(name).add(u.mul(t))));
                Map<String, INDArray> y = evaluate(() -> "along a random direction, t = " + t);
                for (int o = 0; o < outputs.size(); o++) {
                    values[o][k] = Flat.values(y.get(outputs.get(o)));
                }
            }
        } finally {
            origin.forEach((name, x0) -> inputs.get(name).assign(x0));
        }
        return combine(values);
    }

    /** The outputs with input[i] moved by t. */
    Map<String, INDArray> atElement(String input, int i, double t) {
        INDArray x = inputs.get(input);
        double xi = x.getDouble(i);
        x.putScalar(i, xi + t);
        try {
            return evaluate(() -> input + Arrays.toString(Flat.unravel(i, x.shape())) + " moved by " + t);
        } finally {
            x.putScalar(i, xi);
        }
    }

    private Map<String, INDArray> evaluate(java.util.function.Supplier<String> where) {
        Map<String, INDArray> y = f.forward(inputs);
        evaluations.add(1);
        for (String out : outputs) {
            INDArray v = y.get(out);
            if (v == null || !Arrays.equals(v.shape(), shapes.get(out)) || v.dataType() != dtypes.get(out)) {
                throw new UnstableOutputException(out, "output " + out + " is " + describe(shapes.get(out),
                        dtypes.get(out)) + " at the spec's inputs but " + (v == null ? "missing"
                        : describe(v.shape(), v.dataType())) + " with " + where.get());
            }
        }
        return y;
    }

    private Map<String, double[]> combine(double[][][] values) {
        Map<String, double[]> d = new HashMap<>();
        for (int o = 0; o < outputs.size(); o++) {
            d.put(outputs.get(o), FiniteDifferences.derivative(stencil, delta, values[o]));
        }
        return d;
    }

    private static String describe(long[] shape, DataType dtype) {
        return dtype.toString().toLowerCase(java.util.Locale.ROOT) + " " + Arrays.toString(shape);
    }
}
