package dev.gradcheck.check;

import dev.gradcheck.check.full.FullCheck;
import dev.gradcheck.check.jacobian.AnalyticJacobian;
import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.EntryFilter;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.numeric.Seeded;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.catalog.AffineInputs;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Order 2, as PyTorch's gradgradcheck: the backward F(x, v) = Σₖ vₖᵀ ∂outₖ/∂x, with a fixed random cotangent v, is
 * itself a function whose Jacobian (by x and by v) the same modes check: numerically from finite differences of
 * the reference's first-order backward, analytically from the op's double backward. For scalar outputs v is 1,
 * F is the gradient, and a Hessian-vector product H·w is checked against the finite difference of the gradient
 * along a random unit w.
 */
final class SecondOrder {

    private SecondOrder() {}

    /**
     * The order-2 rows: the op's backward, from a build of its own, checked in the spec's mode; for scalar outputs
     * the Hessian-vector products too. Rows are added as they are made, so a later failure leaves the earlier ones.
     *
     * @throws SecondOrderException when the op has no second-order backward or its double backward fails: the
     *                              first-order rows stand, the check errs with the message
     */
    static void addRows(FunctionFactory factory, OpSpec spec, CheckTarget first, Settings s, List<GradientResult> rows)
            throws InvalidSpecException {
        Map<String, INDArray> inputs = new LinkedHashMap<>();
        first.testInputs().forEach((k, x) -> inputs.put(k, x.dup()));
        Differentiable backward;
        Differentiable build = factory.build(spec, inputs);
        try {
            backward = build.backwardFunction(first.wrt(), first.outputs());
        } catch (RuntimeException e) {
            build.close();
            throw new SecondOrderException("order 2: " + spec.op().value() + " has no second-order backward ("
                    + (e.getMessage() == null ? ErrorText.of(e) : e.getMessage()) + ")", e);
        }
        try (backward) {
            CheckTarget second = target(first, backward, s);
            // order 2's blocks are not weighed against the memory budget (the first order's were)
            rows.addAll(CheckModes.of(spec.mode()).run(second, s, MemoryBudget.UNLIMITED));
            if (scalarOutputs(first)) {
                rows.addAll(hessianVectorProducts(second, first.wrt(), s));
            }
        } catch (UnsupportedOperationException | IllegalStateException e) {
            throw new SecondOrderException("order 2: the double backward of " + spec.op().value() + " failed: "
                    + ErrorText.of(e), e);
        }
    }

    static boolean scalarOutputs(CheckTarget first) {
        return first.outputs().stream().allMatch(out -> first.refAtX().get(out).length() == 1);
    }

    /** @param testBackward the op's backward as a function (its vjp is the double backward under test) */
    static CheckTarget target(CheckTarget first, Differentiable testBackward, Settings s) {
        boolean scalars = scalarOutputs(first);
        Map<String, INDArray> testInputs = new LinkedHashMap<>();
        Map<String, INDArray> refInputs = new LinkedHashMap<>();
        first.testInputs().forEach((k, x) -> testInputs.put(k, x.dup()));
        first.refInputs().forEach((k, x) -> refInputs.put(k, x.dup()));
        List<String> wrt = new ArrayList<>(first.wrt());
        for (String out : first.outputs()) {
            INDArray y = first.testAtX().get(out);
            INDArray v = scalars ? Nd4j.ones(DataType.DOUBLE, y.shape())
                    : Seeded.gaussian(s.seed(), "order2-v:" + out, y.shape());
            String name = Differentiable.cotangentName(out);
            testInputs.put(name, v.castTo(y.dataType()));
            refInputs.put(name, v.castTo(y.dataType()).castTo(DataType.DOUBLE)); // the same rounded values
            wrt.add(name);
        }
        Differentiable refBackward = new BackwardAsFunction(first.reference(), first.wrt(), first.outputs(),
                first.refAtX());
        List<String> outputs = first.wrt().stream().map(Differentiable::gradientName).toList();
        return new CheckTarget(2, testBackward, refBackward, testInputs, refInputs, List.copyOf(wrt), outputs,
                testBackward.forward(testInputs), refBackward.forward(refInputs), AffineInputs.NONE);
    }

    /** H·w for every checked input, against the finite difference of the gradient along w. */
    static List<GradientResult> hessianVectorProducts(CheckTarget second, List<String> xs, Settings s) {
        Meter start = Meter.timing();
        Map<String, INDArray> w = new LinkedHashMap<>();
        for (String x : xs) {
            w.put(x, Seeded.unit(s.seed(), "hvp-w:" + x, second.refInputs().get(x).shape()));
        }
        Counter evaluations = new Counter();
        NumericalDerivative derivative = second.numerical(s, evaluations);
        Map<String, double[]> numerical = derivative.along(w);
        double step = derivative.stepAlong(w);
        Map<String, INDArray> cotangents = second.zeroCotangents();
        for (String x : xs) {
            String grad = Differentiable.gradientName(x);
            cotangents.put(grad, w.get(x).castTo(cotangents.get(grad).dataType()));
        }
        Map<String, INDArray> analytic = second.test().vjp(second.testInputs(), cotangents, xs);
        double seconds = start.seconds();
        List<GradientResult> results = new ArrayList<>();
        for (String x : xs) {
            INDArray input = second.testInputs().get(x);
            INDArray g = analytic.get(x);
            double[] a = g == null ? new double[Math.toIntExact(input.length())]
                    : AnalyticJacobian.flatGradient(g, input, x);
            long[] none = new long[0];
            Jacobian an = new Jacobian(none, input.shape(), new double[][] {a});
            Jacobian num = new Jacobian(none, input.shape(), new double[][] {
                numerical.get(Differentiable.gradientName(x))});
            String grad = Differentiable.gradientName(x);
            double[] magnitudes = second.magnitudes(grad);
            NumericalError errors = (row, col) -> NumericalError.rounding(s.stencil(), magnitudes[col], step);
            JacobianComparison.Row row = JacobianComparison.compare(an, num, errors, EntryFilter.NONE,
                    new JacobianComparison.Criteria(s.toleranceFor(second.forwardNoise(grad),
                            FullCheck.largestMagnitude(num)), s.delta(), second.scale(grad)));
            results.add(row.toResult(new JacobianComparison.Compared("Hw", x, CheckKind.HVP, 2),
                    evaluations.value() + 1, seconds, row.errorNote(), null));
        }
        return results;
    }

    /**
     * Any function's first-order backward, seen as a function of its inputs and cotangents: what the numerical
     * side of an order-2 check differentiates. It has no backward of its own.
     */
    private static final class BackwardAsFunction implements Differentiable {

        private final Differentiable f;
        private final List<String> wrt;
        private final List<String> outputs;
        private final Map<String, INDArray> atX;

        BackwardAsFunction(Differentiable f, List<String> wrt, List<String> outputs, Map<String, INDArray> atX) {
            this.f = f;
            this.wrt = wrt;
            this.outputs = outputs;
            this.atX = atX;
        }

        @Override
        public List<String> inputNames() {
            List<String> names = new ArrayList<>(f.inputNames());
            outputs.forEach(out -> names.add(Differentiable.cotangentName(out)));
            return names;
        }

        @Override
        public List<String> outputNames() {
            return wrt.stream().map(Differentiable::gradientName).toList();
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
            Map<String, INDArray> xs = new HashMap<>();
            for (String name : f.inputNames()) {
                xs.put(name, inputs.get(name));
            }
            // every floating output gets a cotangent, zero unless checked: a function's cotangents are fixed
            Map<String, INDArray> cotangents = new LinkedHashMap<>();
            for (String out : f.outputNames()) {
                INDArray y = atX.get(out);
                if (y.dataType().isFPType()) {
                    INDArray v = inputs.get(Differentiable.cotangentName(out));
                    cotangents.put(out, v != null ? v : Nd4j.zeros(y.dataType(), y.shape()));
                }
            }
            Map<String, INDArray> grads = f.vjp(xs, cotangents, wrt);
            Map<String, INDArray> result = new HashMap<>();
            for (String in : wrt) {
                INDArray g = grads.get(in);
                result.put(Differentiable.gradientName(in), g != null ? g
                        : Nd4j.zeros(inputs.get(in).dataType(), inputs.get(in).shape()));
            }
            return result;
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                         List<String> wrtInputs) {
            throw new UnsupportedOperationException("the numerical side of an order-2 check has no backward");
        }
    }
}
