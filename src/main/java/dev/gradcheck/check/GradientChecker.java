package dev.gradcheck.check;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.ForwardMode;
import dev.gradcheck.op.Nd4jTypes;
import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Checks one spec: the numerical Jacobian of the float64 reference build against the analytic Jacobian of the
 * build under test, per (output, input) block, then weighs the outcome against what the spec expects.
 */
public final class GradientChecker {

    private final FunctionFactory factory;
    private final String backend;

    public GradientChecker(FunctionFactory factory, String backend) {
        this.factory = factory;
        this.backend = backend;
    }

    public CheckResult check(OpSpec spec) {
        long start = System.nanoTime();
        DType dtype = lowestPrecision(spec);
        double delta = spec.delta() != null ? spec.delta() : Defaults.delta(dtype);
        Tolerance tolerance = spec.tolerance() != null ? spec.tolerance() : Defaults.tolerance(dtype);
        List<GradientResult> gradients = List.of();
        String message = null;
        Outcome outcome;
        try {
            gradients = compareAll(spec, delta, tolerance);
            outcome = gradients.stream().allMatch(g -> g.verdict().passed()) ? Outcome.PASS : Outcome.MISMATCH;
        } catch (InvalidSpecException e) {
            outcome = Outcome.INVALID;
            message = String.join("\n", e.errors().stream().map(SpecError::toString).toList());
        } catch (Throwable e) { // an operator may fail in any way, native errors included; the batch goes on
            outcome = Outcome.ERROR;
            message = ErrorText.of(e);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new CheckResult(spec.name(), spec.pos().toString(), spec.op().value(), backend, dtype.specName(),
                status(outcome, spec.expect()), spec.expect().kind().specName(), spec.expect().reason(), message,
                gradients, describe(tolerance), delta, seconds);
    }

    private enum Outcome { PASS, MISMATCH, ERROR, INVALID }

    private static Status status(Outcome outcome, Expectation expect) {
        return switch (outcome) {
            case INVALID -> Status.INVALID;
            case PASS -> expect.kind() == Expectation.Kind.PASS ? Status.PASSED : Status.UNEXPECTED_PASS;
            case MISMATCH -> expect.kind() == Expectation.Kind.FAIL ? Status.EXPECTED_FAIL : Status.FAILED;
            case ERROR -> expect.kind() == Expectation.Kind.ERROR ? Status.EXPECTED_ERROR : Status.ERROR;
        };
    }

    private List<GradientResult> compareAll(OpSpec spec, double delta, Tolerance tolerance)
            throws InvalidSpecException {
        Map<String, INDArray> testInputs = new LinkedHashMap<>();
        Map<String, INDArray> refInputs = new LinkedHashMap<>();
        boolean allFloat64 = true;
        for (InputSpec in : spec.inputs()) {
            INDArray values = Nd4j.createFromArray(InputValues.generate(in, spec.seed())).reshape('c', in.shape());
            INDArray test = values.castTo(Nd4jTypes.of(in.dtype()));
            testInputs.put(in.name(), test);
            // the reference sees exactly the (rounded) values the op under test sees
            refInputs.put(in.name(), in.dtype().isFloating() ? test.castTo(DataType.DOUBLE) : test);
            allFloat64 &= !in.dtype().isFloating() || in.dtype() == DType.FLOAT64;
        }
        try (Differentiable underTest = factory.build(spec, testInputs);
             Differentiable reference = allFloat64 ? null : factory.build(spec, refInputs)) {
            Differentiable ref = reference == null ? underTest : reference;
            Map<String, INDArray> y = underTest.forward(testInputs);
            Map<String, INDArray> yRef = reference == null ? y : reference.forward(refInputs);
            List<String> outputs = selectOutputs(spec, underTest.outputNames(), y);

            Map<String, Map<String, Jacobian>> numerical = new HashMap<>();
            Map<String, Long> numericalEvals = new HashMap<>();
            Map<String, Double> numericalSeconds = new HashMap<>();
            for (String in : spec.check()) {
                Counter evals = new Counter();
                long t = System.nanoTime();
                numerical.put(in, NumericalJacobian.compute(ref, refInputs, in, outputs, delta, evals));
                numericalSeconds.put(in, (System.nanoTime() - t) / 1e9);
                numericalEvals.put(in, evals.value());
            }

            Map<String, INDArray> zeroCotangents = new LinkedHashMap<>();
            for (String out : underTest.outputNames()) {
                if (y.get(out).dataType().isFPType()) {
                    zeroCotangents.put(out, Nd4j.zeros(y.get(out).dataType(), y.get(out).shape()));
                }
            }
            List<GradientResult> results = new ArrayList<>();
            for (String out : outputs) {
                Counter passes = new Counter();
                long t = System.nanoTime();
                Map<String, Jacobian> analytic = AnalyticJacobian.compute(underTest, testInputs, zeroCotangents,
                        List.of(out), spec.check(), passes).get(out);
                double analyticSeconds = (System.nanoTime() - t) / 1e9;
                double scale = yRef.get(out).length() == 0 ? 0 : Math.abs(yRef.get(out).castTo(DataType.DOUBLE)
                        .amaxNumber().doubleValue());
                for (String in : spec.check()) {
                    results.add(JacobianComparison.compare(out, in, analytic.get(in), numerical.get(in).get(out),
                            tolerance, delta, scale, numericalEvals.get(in) + passes.value(),
                            numericalSeconds.get(in) + analyticSeconds));
                }
            }
            if (underTest instanceof ForwardMode forwardMode && forwardMode.hasJvp()) {
                results.addAll(JvpCheck.compare(forwardMode, testInputs, spec.check(), outputs, numerical, yRef,
                        spec.seed(), tolerance, delta));
            }
            return results;
        }
    }

    /** The outputs the spec names (by index or name), or every floating output. */
    private static List<String> selectOutputs(OpSpec spec, List<String> names, Map<String, INDArray> y)
            throws InvalidSpecException {
        if (spec.outputs().isEmpty()) {
            List<String> floating = names.stream().filter(n -> y.get(n).dataType().isFPType()).toList();
            if (floating.isEmpty()) {
                throw new InvalidSpecException(spec.op().pos(), spec.op().value() + " has no floating output to check");
            }
            return floating;
        }
        List<String> chosen = new ArrayList<>();
        List<SpecError> errors = new ArrayList<>();
        for (Located<String> o : spec.outputs()) {
            String name = o.value();
            if (!names.contains(name)) {
                errors.add(new SpecError(o.pos(), "output '" + name + "' does not exist: " + spec.op().value()
                        + " has " + names.size() + " output" + (names.size() == 1 ? "" : "s") + " ("
                        + String.join(", ", names) + ")"));
            } else if (!y.get(name).dataType().isFPType()) {
                errors.add(new SpecError(o.pos(), "output '" + name + "' is " + y.get(name).dataType()
                        + " and cannot be differentiated"));
            } else if (!chosen.contains(name)) {
                chosen.add(name);
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidSpecException(errors);
        }
        return chosen;
    }

    /** The checked input with the least precision decides the default step and tolerance. */
    static DType lowestPrecision(OpSpec spec) {
        DType lowest = DType.FLOAT64;
        for (String name : spec.check()) {
            DType d = spec.input(name).dtype();
            if (d.ordinal() > lowest.ordinal()) {
                lowest = d;
            }
        }
        return lowest;
    }

    static String describe(Tolerance t) {
        if (t instanceof Tolerance.AllClose a) {
            return "atol=" + a.atol() + ", rtol=" + a.rtol();
        }
        return "max_relative_error=" + ((Tolerance.MaxRelative) t).maxRelativeError();
    }
}
