package dev.gradcheck.check.numeric;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.Stencil;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Differentiates the reference function numerically along one input element or along a direction across inputs,
 * with the spec's stencil and {@link Step}. Inputs are perturbed in place and restored exactly. Every evaluation's
 * outputs must keep the shape and dtype they had at x: if one does not, the outputs are not a function the checker
 * can differentiate, and {@link UnstableOutputException} says where.
 */
public final class NumericalDerivative {

    /** How a derivative is taken: the stencil, and the step its points are spaced by. */
    public record Scheme(Stencil stencil, Step step) {}

    private final Differentiable f;
    private final Map<String, INDArray> inputs;
    private final List<String> outputs;
    private final Stencil stencil;
    private final Step step;
    private final Counter evaluations;
    private final Map<String, INDArray> atX;
    private final Map<String, long[]> shapes = new HashMap<>();
    private final Map<String, DataType> dtypes = new HashMap<>();

    /**
     * @param atX         the function's outputs at the unperturbed inputs, whose shapes and dtypes must hold
     * @param evaluations counts every forward evaluation
     */
    public NumericalDerivative(Differentiable f, Map<String, INDArray> inputs, Map<String, INDArray> atX,
                        List<String> outputs, Scheme scheme, Counter evaluations) {
        this.f = f;
        this.inputs = inputs;
        this.outputs = new java.util.ArrayList<>(outputs);
        this.stencil = scheme.stencil();
        this.step = scheme.step();
        this.evaluations = evaluations;
        this.atX = atX;
        for (String out : outputs) {
            shapes.put(out, atX.get(out).shape());
            dtypes.put(out, atX.get(out).dataType());
        }
    }

    public Stencil stencil() {
        return stencil;
    }

    /** The function differentiated. */
    public Differentiable function() {
        return f;
    }

    /** The forward evaluations counted so far (by this derivative and every one sharing its counter). */
    public long evaluations() {
        return evaluations.value();
    }

    /** The step element i of {@code input} is moved by. */
    public double stepAt(String input, int i) {
        return step.at(inputs.get(input).getDouble(i));
    }

    /** The step t taken along these directions. */
    public double stepAlong(Map<String, INDArray> directions) {
        return step.along(inputs, directions);
    }

    /**
     * The same derivative, whose step along a direction moves each element by at most its own step
     * ({@link Step#eachElementAlong}): fast mode's.
     */
    public NumericalDerivative eachElementAlong() {
        return new NumericalDerivative(f, inputs, atX, outputs, new Scheme(stencil, step.eachElementAlong()),
                evaluations);
    }

    /** The arrays this derivative perturbs in place (and restores). */
    public Map<String, INDArray> inputs() {
        return inputs;
    }

    /**
     * The same derivative of another function (a copy, for another thread) over other input arrays, counting into
     * the same counter.
     */
    public NumericalDerivative on(Differentiable other, Map<String, INDArray> otherInputs) {
        // the outputs at x are shared read-only: a stencil with a point at 0 reads them instead of evaluating
        NumericalDerivative d = new NumericalDerivative(other, otherInputs, atX, List.of(), new Scheme(stencil, step),
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

    /**
     * The outputs at a stencil's points, flat per output, {@code values.get(out)[k]} at offsets[k]·h
     * ({@link FiniteDifferences#offsets}) along a line through x, in vectors of a pool (their holder's to give back):
     * a caller that probes the same line again reads these points instead of evaluating them anew.
     */
    public record Points(Stencil stencil, double h, Map<String, double[][]> values) {

        /** d output / dt along the line, flat, in a vector of {@code pool}'s. */
        public double[] derivative(String out, VectorPool pool) {
            double[][] v = values.get(out);
            return FiniteDifferences.derivative(stencil, h, v, pool.take(v[0].length));
        }

        /** The derivative of every output, in vectors of {@code pool}'s, the points' own given back to it. */
        public Map<String, double[]> combine(VectorPool pool) {
            Map<String, double[]> d = new HashMap<>();
            values.keySet().forEach(out -> d.put(out, derivative(out, pool)));
            giveBack(pool);
            return d;
        }

        /** The points read and done with: their vectors go back to {@code pool}. */
        public void giveBack(VectorPool pool) {
            values.values().forEach(points -> {
                for (double[] v : points) {
                    pool.giveBack(v);
                }
            });
        }
    }

    /** d outputs / d input[i], flat per output. */
    public Map<String, double[]> alongElement(String input, int i) {
        return pointsAlongElement(input, i, VectorPool.NONE).combine(VectorPool.NONE);
    }

    /** The outputs at the stencil's points along input[i] alone, moved by its own step, in vectors of the pool's. */
    public Points pointsAlongElement(String input, int i, VectorPool pool) {
        return points(t -> atElement(input, i, t), stepAt(input, i), pool);
    }

    /**
     * d/dt outputs(x + t·u), flat per output, with the step {@link #stepAlong}; inputs without a direction stay put.
     */
    public Map<String, double[]> along(Map<String, INDArray> directions) {
        return along(directions, stepAlong(directions));
    }

    /** d/dt outputs(x + t·u), flat per output, with the step t = h as given (u already scaled to the steps wanted). */
    public Map<String, double[]> along(Map<String, INDArray> directions, double h) {
        return pointsAlong(directions, h, VectorPool.NONE).combine(VectorPool.NONE);
    }

    /** The outputs at the stencil's points along u with the step t = h as given, in vectors of the pool's. */
    public Points pointsAlong(Map<String, INDArray> directions, double h, VectorPool pool) {
        return points(t -> atDirection(directions, t), h, pool);
    }

    /** The stencil's points, each output read as it comes into a vector of the pool's. */
    private Points points(java.util.function.DoubleFunction<Map<String, INDArray>> at, double h, VectorPool pool) {
        double[] offsets = FiniteDifferences.offsets(stencil);
        Map<String, double[][]> values = new HashMap<>();
        outputs.forEach(out -> values.put(out, new double[offsets.length][]));
        for (int k = 0; k < offsets.length; k++) {
            Map<String, INDArray> y = at.apply(offsets[k] * h);
            for (String out : outputs) {
                values.get(out)[k] = Flat.values(y.get(out), pool);
            }
        }
        return new Points(stencil, h, values);
    }

    /**
     * The outputs at x + t·u (u per input; inputs without a direction stay put); at t = 0 those at x, unevaluated.
     * They are read at once by every caller: the function may hand out its own arrays
     * ({@link Differentiable#forwardTransient}).
     */
    public Map<String, INDArray> atDirection(Map<String, INDArray> directions, double t) {
        if (t == 0) {
            return atX;
        }
        Map<String, Runnable> restore = new HashMap<>();
        try {
            directions.forEach((name, u) -> restore.put(name, moveTo(inputs.get(name), u, t)));
            return evaluate(() -> "along a direction, t = " + t);
        } finally {
            restore.values().forEach(Runnable::run);
        }
    }

    /**
     * Sets {@code x} to x0 + t·u, where x0 is its value now, and says how to set it back to x0 exactly. In float64
     * it is computed in Java, u·t then + x0 (the two roundings of {@code x0.add(u.mul(t))}, Java's arithmetic being
     * IEEE's without fused multiply-adds), in place: each ND4J call (a mul, an add, a copy of x0) costs more in
     * making its op and arrays than the arithmetic on a few hundred values, and a direction along a group of
     * columns moves a few elements of many (layer_norm [64,1000]: 64 of 64,000), so only the elements whose bits
     * change are written, and kept to be written back: no copy of x, of u or of the moved point.
     */
    private static Runnable moveTo(INDArray x, INDArray u, double t) {
        java.nio.DoubleBuffer xs = Flat.view(x);
        java.nio.DoubleBuffer us = Flat.view(u);
        if (xs != null && us != null && xs.capacity() == us.capacity()) {
            Moved moved = Moved.to(xs, us, t);
            Flat.written(x);
            return () -> {
                moved.restore(xs);
                Flat.written(x);
            };
        }
        INDArray origin = x.dup();
        x.assign(origin.add(u.mul(t)));
        return () -> x.assign(origin);
    }

    /**
     * The elements a move changed and their values before it: one by one where a stretch changed in few places,
     * and whole stretches (their values before the move) where it changed in many.
     */
    private record Moved(int[] at, double[] before, int count, List<Stretch> stretches) {

        /** A stretch of x written back in bulk: where it starts, and its values before the move. */
        private record Stretch(int from, double[] before) {}

        /**
         * Each thread's copies of a stretch of x and of u, reused: read element by element through the buffers, the
         * scan of layer_norm [64,1000]'s 64,000 elements per evaluation was a third of the check's Java time (JFR,
         * 2026-11-28); bulk copies of 4,096 elements at a time and a scan of plain arrays give the same values, in
         * 64 KiB a thread whatever the input's size.
         */
        private static final int STRETCH = 4096;
        private static final ThreadLocal<double[][]> COPIES = ThreadLocal.withInitial(
                () -> new double[][] {new double[STRETCH], new double[STRETCH], new double[STRETCH]});

        /**
         * x set to u·t + x in place; what changed is kept. A stretch where more than an eighth of the elements
         * change (a dense u: fast mode's directions) is written in one bulk copy, unchanged elements with the bits
         * they had, and kept whole to be written back the same way; a sparse u's few changes are written and kept
         * one by one. The positions are noted only in a sparse stretch, found once the stretch is known to be
         * one: noting each of a dense u's 4,000 positions (in arrays grown as they filled) took 28 µs a move,
         * a quarter of a tanh 4000 fast check's own work (2026-11-29).
         */
        static Moved to(java.nio.DoubleBuffer x, java.nio.DoubleBuffer u, double t) {
            double[][] copies = COPIES.get();
            double[] xs = copies[0];
            double[] us = copies[1];
            double[] ms = copies[2];
            Changes sparse = new Changes();
            List<Stretch> stretches = new ArrayList<>(1);
            for (int from = 0; from < x.capacity(); from += STRETCH) {
                int length = Math.min(STRETCH, x.capacity() - from);
                x.get(from, xs, 0, length);
                u.get(from, us, 0, length);
                int changed = 0;
                for (int k = 0; k < length; k++) {
                    double moved = us[k] * t + xs[k];
                    ms[k] = moved;
                    changed += Double.doubleToRawLongBits(moved) != Double.doubleToRawLongBits(xs[k]) ? 1 : 0;
                }
                if (changed > length / 8) {
                    stretches.add(new Stretch(from, Arrays.copyOf(xs, length)));
                    x.put(from, ms, 0, length);
                } else if (changed > 0) {
                    sparse.write(x, from, xs, ms, length);
                }
            }
            return new Moved(sparse.at, sparse.before, sparse.count, stretches);
        }

        void restore(java.nio.DoubleBuffer x) {
            for (Stretch s : stretches) {
                x.put(s.from(), s.before());
            }
            for (int k = 0; k < count; k++) {
                x.put(at[k], before[k]);
            }
        }
    }

    /** The elements of sparse stretches a move changed, and their values before it, as they are written. */
    private static final class Changes {
        private int[] at = new int[16];
        private double[] before = new double[16];
        private int count;

        /** Writes the stretch's changed elements one by one, noting each. */
        void write(java.nio.DoubleBuffer x, int from, double[] xs, double[] ms, int length) {
            for (int k = 0; k < length; k++) {
                if (Double.doubleToRawLongBits(ms[k]) == Double.doubleToRawLongBits(xs[k])) {
                    continue;
                }
                if (count == at.length) {
                    at = Arrays.copyOf(at, 2 * count);
                    before = Arrays.copyOf(before, 2 * count);
                }
                at[count] = from + k;
                before[count++] = xs[k];
                x.put(from + k, ms[k]);
            }
        }
    }

    /** The outputs with input[i] moved by t; at t = 0 those at x, unevaluated. */
    public Map<String, INDArray> atElement(String input, int i, double t) {
        if (t == 0) {
            return atX;
        }
        INDArray x = inputs.get(input);
        double xi = x.getDouble(i);
        x.putScalar(i, xi + t);
        try {
            return evaluate(() -> input + Arrays.toString(Flat.unravel(i, x.shape())) + " moved by " + t);
        } finally {
            x.putScalar(i, xi);
        }
    }

    /** The outputs at the inputs as they are now, the function's own arrays: read them before its next call. */
    private Map<String, INDArray> evaluate(java.util.function.Supplier<String> where) {
        Map<String, INDArray> y = f.forwardTransient(inputs);
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

    private static String describe(long[] shape, DataType dtype) {
        return dtype.toString().toLowerCase(java.util.Locale.ROOT) + " " + Arrays.toString(shape);
    }
}
