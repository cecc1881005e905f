package dev.gradcheck.check;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.ForwardMode;
import dev.gradcheck.op.Nd4jTypes;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Mode;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.CheckOptions;
import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.Init;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InputValues;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /** At most this many fresh draws of the inputs when {@code resample: true} meets a kink. */
    static final int MAX_RESAMPLES = 5;

    public CheckResult check(OpSpec spec) {
        long start = System.nanoTime();
        DType dtype = lowestPrecision(spec);
        double delta = spec.delta() != null ? spec.delta() : Defaults.delta(Defaults.REFERENCE);
        Tolerance tolerance = spec.tolerance() != null ? spec.tolerance() : Defaults.tolerance(dtype);
        CheckOptions o = spec.options();
        Settings settings = new Settings(delta, tolerance, o.stencil(), o.maxElements(), o.nondetTol(), spec.seed());
        List<GradientResult> rows = new ArrayList<>();
        String message = null;
        Outcome outcome;
        try {
            checkOnce(spec, settings, rows);
            if (o.resample() && hasKink(rows)) {
                resample(spec, settings, rows);
            }
            outcome = rows.stream().allMatch(g -> g.verdict().passed()) ? Outcome.PASS
                    : failsOnlyAsExpected(rows, spec.expect()) ? Outcome.MISMATCH : Outcome.UNEXPECTED_MISMATCH;
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
                List.copyOf(rows), describe(tolerance), delta, seconds);
    }

    /** UNEXPECTED_MISMATCH: a row failed that {@code expect: {fail: [...]}} did not name. */
    /**
     * Draws the inputs again with seed + 1, + 2, ... while the check meets a kink, up to {@link #MAX_RESAMPLES}
     * times; the rows say which seed they came from, or why redrawing could not help.
     */
    private void resample(OpSpec spec, Settings first, List<GradientResult> rows) throws InvalidSpecException {
        if (!anyRandomInit(spec)) {
            rows.replaceAll(r -> r.verdict() != Verdict.NONDIFFERENTIABLE ? r : r.withNote("resample: true has no"
                    + " effect here: the checked inputs have fixed values"));
            return;
        }
        for (int k = 1; k <= MAX_RESAMPLES && hasKink(rows); k++) {
            long seed = first.seed() + k;
            rows.clear();
            checkOnce(spec, first.withSeed(seed), rows);
            boolean gaveUp = k == MAX_RESAMPLES && hasKink(rows);
            rows.replaceAll(r -> r.withNote("inputs redrawn with seed " + seed + " after a nondifferentiable point"
                    + (gaveUp && r.verdict() == Verdict.NONDIFFERENTIABLE ? "; still nondifferentiable after "
                    + MAX_RESAMPLES + " redraws, gave up" : "")));
        }
    }

    private enum Outcome { PASS, MISMATCH, UNEXPECTED_MISMATCH, ERROR, INVALID }

    /** With {@code expect: {fail: [kinds]}}, only rows of those kinds may fail; otherwise any may. */
    private static boolean failsOnlyAsExpected(List<GradientResult> rows, Expectation expect) {
        return expect.failing().isEmpty() || rows.stream().filter(r -> !r.verdict().passed())
                .allMatch(r -> expect.failing().contains(r.kind().reportName()));
    }

    private static Status status(Outcome outcome, Expectation expect) {
        return switch (outcome) {
            case INVALID -> Status.INVALID;
            case PASS -> expect.kind() == Expectation.Kind.PASS ? Status.PASSED : Status.UNEXPECTED_PASS;
            case MISMATCH -> expect.kind() == Expectation.Kind.FAIL ? Status.EXPECTED_FAIL : Status.FAILED;
            case UNEXPECTED_MISMATCH -> Status.FAILED;
            case ERROR -> expect.kind() == Expectation.Kind.ERROR ? Status.EXPECTED_ERROR : Status.ERROR;
        };
    }

    /**
     * One draw of the inputs, checked in the spec's mode, then the sanity checks, then order 2. Rows are added to
     * {@code rows} as they are made, so a later step that throws leaves the earlier ones in the report.
     */
    private void checkOnce(OpSpec spec, Settings s, List<GradientResult> rows) throws InvalidSpecException {
        MemoryBudget budget = MemoryBudget.current();
        budget.requireInputsFit(spec); // before any array exists
        Map<String, INDArray> testInputs = new LinkedHashMap<>();
        Map<String, INDArray> refInputs = new LinkedHashMap<>();
        boolean allFloat64 = true;
        for (InputSpec in : spec.inputs()) {
            INDArray values = Nd4j.createFromArray(InputValues.generate(in, s.seed())).reshape('c', in.shape());
            INDArray test = values.castTo(Nd4jTypes.of(in.dtype()));
            testInputs.put(in.name(), test);
            // the reference sees exactly the (rounded) values the op under test sees
            refInputs.put(in.name(), in.dtype().isFloating() ? test.castTo(DataType.DOUBLE) : test);
            allFloat64 &= !in.dtype().isFloating() || in.dtype() == DType.FLOAT64;
        }
        try (Differentiable underTest = factory.build(spec, testInputs);
             Differentiable reference = allFloat64 ? null : factory.build(spec, refInputs)) {
            SanityChecks.Forward atX = SanityChecks.forwardWatchingInputs(underTest, testInputs);
            Map<String, INDArray> refAtX = reference == null ? atX.outputs() : reference.forward(refInputs);
            List<String> outputs = selectOutputs(spec, underTest.outputNames(), atX.outputs());
            Map<String, Long> outputLengths = new LinkedHashMap<>();
            outputs.forEach(o -> outputLengths.put(o, atX.outputs().get(o).length()));
            CheckModes.requireFits(budget, spec, outputLengths);
            CheckTarget target = new CheckTarget(1, underTest, reference == null ? underTest : reference,
                    testInputs, refInputs, spec.check(), outputs, atX.outputs(), refAtX);
            UnstableOutputException unstable = null;
            try {
                rows.addAll(inMode(spec, target, s, budget));
                Optional<ForwardMode> forwardMode = underTest.forwardMode();
                if (forwardMode.isPresent()) {
                    rows.addAll(JvpCheck.run(forwardMode.get(), target, s));
                }
            } catch (UnstableOutputException e) {
                unstable = e;
            }
            rows.add(SanityChecks.zeroGrad(target));
            rows.add(atX.row());
            rows.add(SanityChecks.outputStability(unstable));
            rows.add(SanityChecks.determinism(target, s));
            if (spec.order() == 2 && unstable == null) {
                checkSecondOrder(spec, target, s, rows);
            }
        }
    }

    private static List<GradientResult> inMode(OpSpec spec, CheckTarget target, Settings s, MemoryBudget budget) {
        return CheckModes.of(spec.mode()).run(target, s, budget);
    }

    /** Order 2 needs the op's backward as a graph of its own, so it gets a build of its own. */
    private void checkSecondOrder(OpSpec spec, CheckTarget first, Settings s, List<GradientResult> rows)
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
            CheckTarget second = SecondOrder.target(first, backward, s);
            rows.addAll(inMode(spec, second, s, MemoryBudget.UNLIMITED)); // order 2's blocks are not weighed
            if (SecondOrder.scalarOutputs(first)) {
                rows.addAll(SecondOrder.hessianVectorProducts(second, first.wrt(), s));
            }
        } catch (UnsupportedOperationException | IllegalStateException e) {
            throw new SecondOrderException("order 2: the double backward of " + spec.op().value() + " failed: "
                    + ErrorText.of(e), e);
        }
    }

    /** Order 2 could not run: the first-order rows stand, the check errs with this message. */
    static final class SecondOrderException extends RuntimeException {
        SecondOrderException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static boolean hasKink(List<GradientResult> rows) {
        return rows.stream().anyMatch(r -> r.verdict() == Verdict.NONDIFFERENTIABLE);
    }

    /** Only random inits change with the seed; fixed values would give the same kink again. */
    private static boolean anyRandomInit(OpSpec spec) {
        return spec.check().stream().map(spec::input)
                .anyMatch(in -> in.init() instanceof Init.Uniform || in.init() instanceof Init.Normal);
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
