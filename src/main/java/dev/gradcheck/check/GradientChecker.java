package dev.gradcheck.check;

import dev.gradcheck.check.dense.BlockMask;
import dev.gradcheck.check.fast.FastCheck;
import dev.gradcheck.check.full.FullCheck;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.numeric.UnstableOutputException;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Defaults;
import dev.gradcheck.check.target.OverBudget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.op.CallOverBudget;
import dev.gradcheck.op.CollectingFunction;
import dev.gradcheck.op.CountingFunction;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.ForwardMode;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.result.Mode;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Checks one spec: the numerical Jacobian of the float64 reference build against the analytic Jacobian of the
 * build under test, per (output, input) block, then weighs the outcome against what the spec expects. One pass is
 * a few named steps: draw the inputs ({@link DrawnInputs}), build and run the forward, select the outputs
 * ({@link OutputSelection}) and weigh the blocks against the budget, run the mode ({@link CheckModes}), add the rows
 * every mode shares (the operator's JVP, {@link SanityChecks}, {@link SecondOrder}); then {@link Resampler} may
 * redraw, and {@link Judgement} turns the rows and the expectation into a status.
 */
public final class GradientChecker {

    private final FunctionFactory factory;
    private final String backend;
    private final MemoryBudget budget;

    /**
     * @param backend the engine's name, as results carry it
     * @param budget  the most memory one check may plan to use: a spec over it ends INVALID before it allocates
     */
    public GradientChecker(FunctionFactory factory, String backend, MemoryBudget budget) {
        this.factory = factory;
        this.backend = backend;
        this.budget = budget;
    }

    /** With the default budget for checks in this JVM (half its heap). */
    public GradientChecker(FunctionFactory factory, String backend) {
        this(factory, backend, MemoryBudget.forThisJvm());
    }

    public CheckResult check(OpSpec spec) {
        return check(spec, JacobianCapture.NONE);
    }

    /** @param capture which compared blocks hand back their matrices ({@link GradientResult#jacobians()}) */
    public CheckResult check(OpSpec spec, JacobianCapture capture) {
        Meter start = Meter.timing();
        Settings settings = Settings.of(spec, capture);
        List<GradientResult> rows = new ArrayList<>();
        List<String> defaulted = new ArrayList<>();
        CountingFunction.Tally calls = new CountingFunction.Tally();
        Resampler.Pass pass = (sp, st, r) -> checkOnce(sp, st, r, defaulted, calls);
        String message = null;
        Judgement.Outcome outcome;
        try {
            pass.check(spec, settings, rows);
            if (spec.options().resample() && Resampler.hasKink(rows)) {
                Resampler.resample(spec, settings, rows, pass);
            }
            outcome = Judgement.of(rows, spec.expect());
        } catch (InvalidSpecException e) {
            outcome = Judgement.Outcome.INVALID;
            message = String.join("\n", e.errors().stream().map(SpecError::toString).toList());
        } catch (Throwable e) { // an operator may fail in any way, native errors included; the batch goes on
            outcome = Judgement.Outcome.ERROR;
            message = ErrorText.of(e);
        }
        double seconds = start.seconds();
        return new CheckResult(spec.name(), spec.pos().toString(), spec.op().value(), backend,
                Defaults.dtypeUnderTest(spec).specName(), Judgement.status(outcome, spec.expect()),
                spec.expect().kind().specName(), spec.expect().reason(), message, List.copyOf(rows),
                settings.describeTolerance(), settings.delta(), seconds).withDefaultedAttributes(defaulted)
                .withCalls(calls.calls());
    }

    /**
     * What validate asks of a spec that runs ops: the same start as a check ({@link #prepare}), on the same draw, and
     * nothing after it. So a spec ND4J refuses when it is built or first run, or whose outputs, mask or Jacobians do
     * not fit what the built op gives, is INVALID at the same position in both commands. What fails after the op
     * was accepted (an operator error) is thrown as it came; the caller decides what that means for validation.
     */
    public void validate(OpSpec spec) throws InvalidSpecException {
        Settings settings = Settings.of(spec);
        try (Prepared p = prepare(spec, settings, new CountingFunction.Tally())) {
            if (spec.mode() == Mode.FULL) {
                FullCheck.weigh(p.target(), settings, budget);
            }
        } catch (OverBudget e) {
            refuse(spec, e);
        } catch (CallOverBudget e) {
            refuse(spec, e);
        }
    }

    /** A target over the budget at run time, refused as a spec over it is: INVALID at the spec's position. */
    private void refuse(OpSpec spec, OverBudget e) throws InvalidSpecException {
        MemoryBudget.BudgetThatFits fits = MemoryBudget.optionAndHeap(e.fits().bytes());
        budget.require(spec.pos(), e.needed().bytes(), e.needed().what(), "--max-memory " + fits.maxMemory()
                + " would let " + e.fits().what() + " run, in a heap of twice that (GRADCHECK_OPTS=-Xmx" + fits.heap()
                + "); or mode: fast, max_elements: N, a smaller shape or check: fewer inputs fits");
        throw new IllegalStateException("over the budget, yet within it", e);
    }

    /** One call that took more than the budget by itself ({@link CallOverBudget}): INVALID, with what would fit. */
    private void refuse(OpSpec spec, CallOverBudget e) throws InvalidSpecException {
        MemoryBudget.BudgetThatFits fits = MemoryBudget.optionAndHeap(e.needed());
        budget.require(spec.pos(), e.needed(), "one " + e.kind() + " call of " + spec.op().value() + " (measured"
                + " across the call)", "--max-memory " + fits.maxMemory() + " would let its calls run one at a time, in"
                + " a heap of twice that (GRADCHECK_OPTS=-Xmx" + fits.heap() + "); or a smaller shape fits");
        throw new IllegalStateException("over the budget, yet within it", e);
    }

    /**
     * One draw of the inputs, checked in the spec's mode, then the sanity checks, then order 2. Rows are added to
     * {@code rows} as they are made, so a later step that throws leaves the earlier ones in the report. Determinism
     * and linearity are judged before the mode runs; where either failed, a mode that refuses the spec (over the
     * budget) leaves a failed check with those rows, not an INVALID one: the backward is wrong whatever the mode.
     */
    private void checkOnce(OpSpec spec, Settings s, List<GradientResult> rows, List<String> defaulted,
                           CountingFunction.Tally calls) throws InvalidSpecException {
        try (Prepared p = prepare(spec, s, calls)) {
            checkPrepared(spec, s, rows, defaulted, p);
        } catch (CallOverBudget e) {
            refuse(spec, e);
        }
    }

    private void checkPrepared(OpSpec spec, Settings s, List<GradientResult> rows, List<String> defaulted,
                               Prepared p) throws InvalidSpecException {
        defaulted.clear();
        defaulted.addAll(p.underTest().attributesLeftAtDefault());
        Map<String, INDArray> modesCotangents = spec.mode() == Mode.FAST
                ? FastCheck.backwardCotangents(p.target(), s) : null;
        SanityChecks.FirstCalls first = SanityChecks.firstCalls(p.target(), s, elsewhere(spec, s, p.x()),
                p.owed(), p.underTest(), modesCotangents);
        UnstableOutputException unstable;
        try {
            unstable = modeRows(spec, p.target(), s, rows);
        } catch (InvalidSpecException refused) {
            if (!first.broken()) {
                throw refused;
            }
            // the backward is already shown wrong: a failure with that row, not a refusal of the spec
            rows.addAll(SanityChecks.rows(p.target(), p.atX().row(), null, first.notJudged(refused)));
            return;
        }
        rows.addAll(SanityChecks.rows(p.target(), p.atX().row(), unstable, first));
        if (spec.order() == 2 && unstable == null) {
            SecondOrder.addRows(factory, spec, p.target(), s, rows);
        }
    }

    /**
     * A pass up to its first comparison: the inputs drawn, the functions built (an ND4J op is run once as it is
     * built: what ND4J refuses there is the spec's mistake), the forward at x, the outputs selected, the mask read
     * against them, the Jacobians weighed. Check and validate both start here, so they refuse the same specs.
     */
    private record Prepared(DrawnInputs x, KeptBackward underTest, OwedForward owed, Differentiable reference,
                            SanityChecks.Forward atX, CheckTarget target) implements AutoCloseable {
        @Override
        public void close() {
            closeBoth(underTest, reference);
        }
    }

    /** @param calls where the functions built count the calls the check makes on them (the report's {@code calls}) */
    private Prepared prepare(OpSpec spec, Settings s, CountingFunction.Tally calls) throws InvalidSpecException {
        budget.requireInputsFit(spec); // before any array exists
        DrawnInputs x = DrawnInputs.draw(spec, s.seed());
        CollectingFunction.Guard garbage = CollectingFunction.Guard.within(budget.bytes());
        // counted inside both: a forward at x owed and paid is a call the function saw, a kept pass handed out not
        OwedForward owed = new OwedForward(new CountingFunction(new CollectingFunction(factory.build(spec, x.test()),
                garbage), calls));
        KeptBackward underTest = new KeptBackward(owed);
        Differentiable reference = null;
        try {
            reference = x.allFloat64() ? null : new CountingFunction(new CollectingFunction(
                    factory.build(spec, x.reference()), garbage), calls);
            SanityChecks.Forward atX = SanityChecks.forwardWatchingInputs(underTest, x.test());
            CheckTarget target = target(spec, underTest, reference, x, atX.outputs());
            BlockMask.validate(s.mask(), target.outputs(), target.outputShapes());
            return new Prepared(x, underTest, owed, reference, atX, target);
        } catch (InvalidSpecException | RuntimeException | Error e) {
            closeBoth(underTest, reference);
            throw e;
        }
    }

    /** @param reference null when the build under test is its own reference */
    private static void closeBoth(Differentiable underTest, Differentiable reference) {
        try {
            if (reference != null) {
                reference.close();
            }
        } finally {
            underTest.close();
        }
    }

    /**
     * Inputs at another point than x, for the determinism row's forward between backwards: the floating inputs
     * drawn again (from their own init, so usually inside the op's domain), or shifted by a half where the init
     * is fixed; integer inputs (indices) stay as they are.
     */
    private static Map<String, INDArray> elsewhere(OpSpec spec, Settings s, DrawnInputs x) {
        Map<String, INDArray> other = DrawnInputs.underTest(spec, s.seed() ^ 0x5DEECE66DL);
        Map<String, INDArray> point = new LinkedHashMap<>();
        for (Map.Entry<String, INDArray> e : x.test().entrySet()) {
            INDArray at = e.getValue();
            if (!at.dataType().isFPType()) {
                point.put(e.getKey(), at);
                continue;
            }
            INDArray drawn = other.get(e.getKey());
            point.put(e.getKey(), !plainlyDifferent(drawn, at) && drawn.equals(at) ? at.add(0.5) : drawn);
        }
        return point;
    }

    /**
     * Whether two arrays of one shape and dtype differ somewhere by far more than {@link INDArray#equals}'s
     * tolerance (1e-5, absolute and relative), so that it would call them unequal: decided in Java, without the
     * op and arrays that call makes. Anything closer is left to equals itself, whose answer is kept.
     */
    static boolean plainlyDifferent(INDArray a, INDArray b) {
        if (a.dataType() != b.dataType() || !java.util.Arrays.equals(a.shape(), b.shape())) {
            return false;
        }
        double[] x = Flat.values(a);
        double[] y = Flat.values(b);
        double margin = 1e-3; // a hundred times equals' tolerance
        for (int i = 0; i < x.length; i++) {
            double d = Math.abs(x[i] - y[i]);
            if (Double.isFinite(x[i]) && Double.isFinite(y[i]) && d > margin
                    && d > margin * Math.max(Math.abs(x[i]), Math.abs(y[i]))) {
                return true;
            }
        }
        return false;
    }

    /**
     * What the pass compares: the selected outputs, once the forward pass has told their sizes and the budget has
     * weighed what the mode will hold for them (before the blocks, which dominate).
     *
     * @param reference the float64 build, or null when the build under test is float64 already
     */
    private CheckTarget target(OpSpec spec, Differentiable underTest, Differentiable reference, DrawnInputs x,
                               Map<String, INDArray> testAtX) throws InvalidSpecException {
        Map<String, INDArray> refAtX = reference == null ? testAtX : reference.forward(x.reference());
        List<String> outputs = OutputSelection.select(spec, underTest.outputNames(), testAtX);
        Map<String, Long> outputLengths = new LinkedHashMap<>();
        outputs.forEach(o -> outputLengths.put(o, testAtX.get(o).length()));
        CheckModes.requireFits(budget, spec, outputLengths);
        Differentiable numerical = reference == null ? underTest : reference;
        return new CheckTarget(1, underTest, numerical, x.test(), x.reference(), spec.check(), outputs, testAtX,
                refAtX, numerical.affineInputs());
    }

    /**
     * The mode's rows, then the operator's own JVP where it has one (in any mode).
     *
     * @return null, or the unstable output either met (the sanity rows report it)
     */
    private UnstableOutputException modeRows(OpSpec spec, CheckTarget target, Settings s, List<GradientResult> rows)
            throws InvalidSpecException {
        try {
            rows.addAll(CheckModes.of(spec.mode()).run(target, s, budget));
            Optional<ForwardMode> forwardMode = target.test().forwardMode();
            if (forwardMode.isPresent()) {
                rows.addAll(JvpCheck.run(forwardMode.get(), target, s));
            }
            return null;
        } catch (OverBudget e) {
            List<GradientResult> failing = spec.mode() == Mode.FULL ? FastBeforeRefusal.failing(target, s, budget, e)
                    : null;
            if (failing == null) {
                refuse(spec, e);
            }
            rows.addAll(failing);
            return null;
        } catch (UnstableOutputException e) {
            return e;
        }
    }
}
