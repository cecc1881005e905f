package dev.gradcheck.check.jacobian;

import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.check.numeric.Precision;
import dev.gradcheck.check.numeric.VectorPool;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jTypes;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The op's own backward, one row at a time: row j of d out / d x is the vector-Jacobian product with a one-hot
 * cotangent at out_j (and zero cotangents on every other output). Only the requested rows are built when the
 * check samples. As a {@link JacobianSide}, a cotangent Σ w_j·e_j gives Σ w_j·row_j in one backward pass.
 */
public final class AnalyticJacobian implements JacobianSide {

    private final Differentiable f;
    private final Map<String, INDArray> inputs;
    private final Map<String, INDArray> zeroCotangents;
    private final List<String> outputs;
    private final List<String> wrt;
    private final Map<String, Counter> passes;
    /** Where the vectors {@link #evaluate} returns come from and go back to: shared with this side's copies. */
    private VectorPool pool = VectorPool.reusing();

    /**
     * @param zeroCotangents one zero array per floating output, in that output's shape and dtype; the one of the
     *                       output evaluated is set in turn and restored
     */
    public AnalyticJacobian(Differentiable f, Map<String, INDArray> inputs, Map<String, INDArray> zeroCotangents,
                     List<String> outputs, List<String> wrt) {
        this(f, inputs, zeroCotangents, outputs, wrt, new HashMap<>());
        outputs.forEach(out -> passes.put(out, new Counter()));
    }

    private AnalyticJacobian(Differentiable f, Map<String, INDArray> inputs, Map<String, INDArray> zeroCotangents,
                             List<String> outputs, List<String> wrt, Map<String, Counter> passes) {
        this.f = f;
        this.inputs = inputs;
        this.zeroCotangents = zeroCotangents;
        this.outputs = outputs;
        this.wrt = wrt;
        this.passes = passes;
    }

    /**
     * The inputs are only read, so the copy shares them; it writes cotangents of its own, made as zeros (this side's
     * may hold a weight while it evaluates on the calling thread).
     */
    @Override
    public AnalyticJacobian copy(ParallelLines.Copies copies) {
        Map<String, INDArray> cotangents = new LinkedHashMap<>();
        zeroCotangents.forEach((out, c) -> cotangents.put(out, org.nd4j.linalg.factory.Nd4j.zeros(c.dataType(),
                c.shape())));
        AnalyticJacobian copy = new AnalyticJacobian(copies.of(f), inputs, cotangents, outputs, wrt, passes);
        copy.pool = pool;
        return copy;
    }

    @Override
    public List<Differentiable> functions() {
        return List.of(f);
    }

    /**
     * The blocks of one output, row by row on one thread.
     *
     * @param rows the flat output indices to build, or null for all
     * @return Jacobians keyed by input; an input the backward gives no gradient gets zero rows
     */
    public Map<String, Jacobian> rows(String out, int[] rows) {
        return rows(out, rows, new ParallelLines(1));
    }

    /** The same, the rows spread over {@code threads}; each row's pass counts toward {@link #evaluations}. */
    public Map<String, Jacobian> rows(String out, int[] rows, ParallelLines threads) {
        INDArray cotangent = zeroCotangents.get(out);
        int m = rows == null ? Math.toIntExact(cotangent.length()) : rows.length;
        List<Map<String, double[]>> computed = threads.run(m, new JacobianSide.Lines(this, out, rows));
        Map<String, double[][]> values = new HashMap<>();
        for (String in : wrt) {
            double[][] v = new double[m][];
            for (int r = 0; r < m; r++) {
                v[r] = computed.get(r).get(in);
            }
            values.put(in, v);
        }
        Map<String, Jacobian> byInput = new HashMap<>();
        for (String in : wrt) {
            byInput.put(in, new Jacobian(cotangent.shape(), inputs.get(in).shape(), values.get(in), rows, null));
        }
        return byInput;
    }

    @Override
    public List<String> units() {
        return outputs;
    }

    @Override
    public List<String> crossUnits() {
        return wrt;
    }

    @Override
    public int lineCount(String out) {
        return Math.toIntExact(zeroCotangents.get(out).length());
    }

    @Override
    public int crossLength(String in) {
        return Math.toIntExact(inputs.get(in).length());
    }

    /** One backward pass with cotangent Σ weights[k]·e_lines[k] on {@code out}; no gradient reads as zeros. */
    @Override
    public Map<String, double[]> evaluate(String out, int[] lines, double[] weights) {
        INDArray cotangent = zeroCotangents.get(out);
        Map<String, INDArray> grads;
        try {
            for (int k = 0; k < lines.length; k++) {
                cotangent.putScalar(lines[k], weights[k]);
            }
            grads = f.vjpTransient(inputs, zeroCotangents, wrt); // read below, before the next pass
        } finally {
            for (int line : lines) {
                cotangent.putScalar(line, 0.0);
            }
        }
        passes.get(out).add(1);
        Map<String, double[]> byInput = new LinkedHashMap<>();
        for (String in : wrt) {
            INDArray g = grads.get(in);
            byInput.put(in, g == null ? new double[crossLength(in)] : flatGradient(g, inputs.get(in), in, pool));
        }
        return byInput;
    }

    /** The vectors of an evaluation read and done with: they are handed out again. */
    @Override
    public void giveBack(Map<String, double[]> values) {
        values.values().forEach(pool::giveBack);
    }

    /** The mantissa bits of the output's dtype: weights on that grid are cotangent values exactly. */
    @Override
    public int weightBits(String out) {
        return Nd4jTypes.toSpec(zeroCotangents.get(out).dataType()).map(Precision::mantissaBits).orElse(0);
    }

    @Override
    public long evaluations(String out) {
        return passes.get(out).value();
    }

    /** A gradient must have its input's shape; anything else is the backward's error, said plainly. */
    public static double[] flatGradient(INDArray g, INDArray input, String name) {
        return flatGradient(g, input, name, VectorPool.NONE);
    }

    private static double[] flatGradient(INDArray g, INDArray input, String name, VectorPool pool) {
        if (g.length() != input.length()) {
            throw new IllegalStateException("the backward returned a gradient of shape "
                    + Arrays.toString(g.shape()) + " for input '" + name + "' of shape "
                    + Arrays.toString(input.shape()));
        }
        return Flat.values(g, pool);
    }
}
