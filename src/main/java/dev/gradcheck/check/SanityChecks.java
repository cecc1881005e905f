package dev.gradcheck.check;

import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.numeric.Seeded;
import dev.gradcheck.check.numeric.UnstableOutputException;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.PlainArrays;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The checks PyTorch's gradcheck makes beside the Jacobian, each its own row and verdict: a zero output gradient
 * gives zero input gradients; the forward leaves its inputs alone (and a backward its inputs, outputs and output
 * gradients, where the function can watch them: plugins); outputs keep their shape and dtype under perturbation;
 * the backward gives the same answer twice, and the same again after a forward at another point (a backward that
 * reads what the last forward left behind gives that point's answer). A held check is one row with output and
 * input "*"; a broken one names the first input (or output) at fault and says what happened in its note.
 */
final class SanityChecks {

    private SanityChecks() {}

    /** Runs the forward at x, noting any input it changes (in the caller's arrays or the function's own copy). */
    static Forward forwardWatchingInputs(Differentiable f, Map<String, INDArray> inputs) {
        Map<String, INDArray> before = new LinkedHashMap<>();
        inputs.forEach((name, x) -> before.put(name, x.dup()));
        Meter start = Meter.timing();
        Map<String, INDArray> y = f.forward(inputs);
        List<String> changed = new ArrayList<>();
        List<String> changes = new ArrayList<>();
        for (String name : before.keySet()) {
            if (PlainArrays.sameBits(before.get(name), inputs.get(name))) {
                continue; // untouched, bit for bit: no difference to find
            }
            Difference d = Difference.of(Flat.values(before.get(name)), Flat.values(inputs.get(name)));
            if (d.max() > 0) {
                changed.add(name);
                changes.add(name + index(d.index(), before.get(name)) + " was " + d.first() + ", became "
                        + d.second());
                inputs.get(name).assign(before.get(name)); // the rest of the check sees the spec's values
            }
        }
        for (String name : f.inputsChangedByForward(inputs)) {
            changed.add(name);
            changes.add(name + " (the op's own copy)");
        }
        GradientResult row = changes.isEmpty() ? held(CheckKind.INPUT_MUTATION, 1, start.seconds())
                : broken(CheckKind.INPUT_MUTATION, Verdict.INPUT_MUTATED, At.input(changed.get(0)), 1,
                        start.seconds(), "the forward changed " + String.join("; ", changes));
        return new Forward(y, row);
    }

    record Forward(Map<String, INDArray> outputs, GradientResult row) {}

    /**
     * The sanity rows of a pass, in report order: zero gradient, input mutation (watched during the forward at x,
     * then every call the function saw), output stability (broken when the mode or the JVP met an unstable output),
     * determinism (with a forward at another point between the second and third backward) and linearity, the last
     * two made before the mode ran ({@link #firstCalls}).
     */
    static List<GradientResult> rows(CheckTarget t, GradientResult inputMutation, UnstableOutputException unstable,
                                     FirstCalls first) {
        GradientResult zero = zeroGrad(t);
        return List.of(zero, withCallsWatched(inputMutation, t.test().argumentsChanged()),
                outputStability(unstable), first.determinismCounted(), first.linearity());
    }

    /**
     * The rows made before the mode runs, so that the check's first backward calls meet a judgement: a backward
     * that answers differently on its first call (a cold cache, a buffer built lazily) fails determinism, where a
     * mode's first call (a pattern probe's) would have taken its answer unjudged. Determinism and linearity share
     * their cotangent v and three calls: linearity's VJP(v) is determinism's second backward pass, and
     * determinism's backward after the forward elsewhere is linearity's VJP(−2¹⁰·v) ({@link Elsewhere}); where
     * determinism's two passes disagree, linearity makes its own (a backward wrong on one call is not blamed on
     * linearity). After the forward elsewhere a forward at x is owed to the function, paid before its next backward
     * unless a forward comes first ({@link OwedForward}), so that the mode meets the state a forward leaves, as it
     * did before this ran.
     *
     * @param modesCotangents the cotangents of the mode's one backward pass (fast mode, one output), or null: where
     *                        given, they are v, and the first pass is handed to the mode once determinism held
     *                        ({@link KeptBackward})
     */
    static FirstCalls firstCalls(CheckTarget t, Settings s, Map<String, INDArray> elsewhere, OwedForward owed,
                                 KeptBackward kept, Map<String, INDArray> modesCotangents) {
        Meter start = Meter.timing();
        Map<String, INDArray> v = modesCotangents != null ? modesCotangents : determinismCotangents(t, s);
        if (modesCotangents != null) {
            kept.recordNext();
        }
        Map<String, double[]> first = t.gradients(v);
        Map<String, double[]> second = t.gradients(v);
        GradientResult twice = backwardTwice(t, s, first, second, start);
        if (twice != null) {
            kept.handOut(false);
            return new FirstCalls(twice, Linearity.row(t, s, v, null, null), null, null);
        }
        Elsewhere after = Elsewhere.probe(t, v, elsewhere);
        if (after.scaled() != null && !scaledAlike(t, first, after.scaled(), s.nondetTol())) {
            after = after.withThird(t, v);
        }
        GradientResult determinism = afterElsewhere(t, s, first, after, start);
        kept.handOut(determinism.verdict().passed());
        // the latest passes: where determinism broke, a backward that reads stale state met it in both, and one
        // wrong on a single call is wrong in the earlier
        GradientResult linearity = after.third() == null ? Linearity.row(t, s, v, second, after.scaled())
                : Linearity.row(t, s, v, after.third(), after.again());
        if (elsewhere != null) {
            owed.owe(t.testInputs()); // after linearity: its calls after the forward elsewhere meet that state, as before
        }
        return new FirstCalls(determinism, linearity, elsewhere != null ? owed : null, kept);
    }

    /**
     * The backward at x after a forward at another point, made with the cotangent −2¹⁰·v: scaling by a power of two
     * is exact, so a backward that reads its arguments, not what the last forward left, gives −2¹⁰ times the first
     * pass's bits (within 2¹⁰·nondet_tol), and the same call is linearity's homogeneity test at −2¹⁰. Where it
     * does not, the backward with v itself is made too ({@code third}), and VJP(−2¹⁰·v) once more ({@code again}):
     * determinism is judged by the third pass against the first and by the two −2¹⁰ passes against each other (a
     * backward wrong on that one call stays determinism's), linearity by −2¹⁰ against its VJP(v).
     *
     * @param scaled VJP(−2¹⁰·v), null when no forward elsewhere ran (linearity then makes it)
     * @param third  VJP(v) after the forward elsewhere, where it was needed; null otherwise
     * @param again  VJP(−2¹⁰·v) made a second time, where third was made; null otherwise
     */
    record Elsewhere(Map<String, double[]> scaled, Map<String, double[]> third, Map<String, double[]> again,
                     int calls) {

        static Elsewhere probe(CheckTarget t, Map<String, INDArray> v, Map<String, INDArray> elsewhere) {
            if (elsewhere == null) {
                return new Elsewhere(null, null, null, 0);
            }
            try {
                t.test().forwardTransient(elsewhere);
            } catch (RuntimeException e) {
                return new Elsewhere(null, null, null, 0); // x' may be outside the op's domain: no evidence either way
            }
            return new Elsewhere(t.gradients(Linearity.scaled(v, Linearity.SCALES[0])), null, null, 2);
        }

        Elsewhere withThird(CheckTarget t, Map<String, INDArray> v) {
            Map<String, double[]> third = t.gradients(v);
            return new Elsewhere(scaled, third, t.gradients(Linearity.scaled(v, Linearity.SCALES[0])), calls + 2);
        }
    }

    /**
     * @param owed the function owing a forward at x after determinism's forward elsewhere, or null if it owes none
     * @param kept the function keeping determinism's first pass for the mode, or null where none was kept
     */
    record FirstCalls(GradientResult determinism, GradientResult linearity, OwedForward owed, KeptBackward kept) {

        boolean broken() {
            return !determinism.verdict().passed() || !linearity.verdict().passed();
        }

        /**
         * Determinism's row, its evaluations the calls it caused, so that the rows' evaluations add up to the calls
         * the function saw on every path: charged with the forward at x it owed where a later call paid it (a forward
         * made first cancels the debt: no call), and relieved of its first backward pass where that pass was handed
         * to the mode, whose row counts it.
         */
        GradientResult determinismCounted() {
            long paid = owed != null && owed.paid() ? 1 : 0;
            long handed = kept != null && kept.handedOut() ? 1 : 0;
            return paid == handed ? determinism : determinism.withMoreEvaluations(paid - handed);
        }

        /** The same rows, the broken ones saying that the mode refused to judge the Jacobian, and why. */
        FirstCalls notJudged(dev.gradcheck.spec.InvalidSpecException refused) {
            String why = "; the Jacobian was not judged: " + String.join("; ",
                    refused.errors().stream().map(e -> e.message()).toList());
            return new FirstCalls(determinism.verdict().passed() ? determinism : determinism.withNote(
                    determinism.note() + why), linearity.verdict().passed() ? linearity : linearity.withNote(
                    linearity.note() + why), owed, kept);
        }
    }

    /** The forward's row at x, broken too by anything the function saw its code do to its arguments since. */
    private static GradientResult withCallsWatched(GradientResult atX, List<String> changes) {
        if (changes.isEmpty()) {
            return atX;
        }
        String seen = String.join("; ", changes);
        if (!atX.verdict().passed()) {
            return atX.withNote(seen);
        }
        String first = changes.get(0);
        int quote = first.indexOf('\'');
        String name = quote < 0 ? "*" : first.substring(quote + 1, first.indexOf('\'', quote + 1));
        boolean output = first.contains("its output");
        return broken(CheckKind.INPUT_MUTATION, Verdict.INPUT_MUTATED, output ? At.output(name) : At.input(name),
                atX.evaluations(), atX.seconds(), "the " + seen + " (gradcheck hands it copies, but a caller sharing"
                        + " the arrays would see them change)");
    }

    static GradientResult outputStability(UnstableOutputException unstable) {
        return unstable == null ? held(CheckKind.OUTPUT_STABILITY, 0, 0)
                : broken(CheckKind.OUTPUT_STABILITY, Verdict.UNSTABLE_OUTPUT, At.output(unstable.output()), 0, 0,
                        unstable.getMessage());
    }

    /** Zero cotangents on every output must give zero gradients (PyTorch's check_backward_ad zero-grad test). */
    static GradientResult zeroGrad(CheckTarget t) {
        Meter start = Meter.timing();
        Map<String, INDArray> grads = t.test().vjpTransient(t.testInputs(), t.zeroCotangents(), t.wrt());
        for (String in : t.wrt()) {
            INDArray g = grads.get(in);
            if (g == null) {
                continue;
            }
            double[] values = Flat.values(g);
            Difference d = Difference.of(new double[values.length], values);
            if (d.max() > 0) {
                return broken(CheckKind.ZERO_GRAD, Verdict.NONZERO_FOR_ZERO_GRAD, At.input(in), 1, start.seconds(),
                        "zero output gradients gave " + in + index(d.index(), t.testInputs().get(in)) + " = "
                                + d.second());
            }
        }
        return held(CheckKind.ZERO_GRAD, 1, start.seconds());
    }

    /** The determinism row's cotangents: seeded Gaussian values on the checked outputs, zero on the others. */
    private static Map<String, INDArray> determinismCotangents(CheckTarget t, Settings s) {
        Map<String, INDArray> cotangents = t.zeroCotangents();
        for (String out : t.outputs()) {
            INDArray c = cotangents.get(out);
            if (c != null) {
                cotangents.put(out, Seeded.gaussian(s.seed(), "nondet:" + out, c.shape()).castTo(c.dataType()));
            }
        }
        return cotangents;
    }

    /**
     * The determinism row's first part: the same backward, with the same random cotangent, twice; the results may
     * differ by at most nondet_tol. Null when they agree.
     */
    private static GradientResult backwardTwice(CheckTarget t, Settings s, Map<String, double[]> first,
                                                Map<String, double[]> second, Meter start) {
        for (String in : t.wrt()) {
            if ((first.get(in) == null) != (second.get(in) == null)) {
                return broken(CheckKind.DETERMINISM, Verdict.NONDETERMINISTIC, At.input(in), 2, start.seconds(),
                        "one run gave " + in + " a gradient, the other did not");
            }
            if (first.get(in) == null) {
                continue;
            }
            Difference d = Difference.of(first.get(in), second.get(in));
            if (d.max() > s.nondetTol()) {
                return broken(CheckKind.DETERMINISM, Verdict.NONDETERMINISTIC, At.input(in), 2, start.seconds(),
                        "two runs of the backward gave " + in + index(d.index(), t.testInputs().get(in)) + " = "
                                + d.first() + " and " + d.second() + " (nondet_tol " + s.nondetTol() + ")");
            }
        }
        return null;
    }

    /**
     * The determinism row's second part: after a forward elsewhere, the backward at x once more must give the same
     * answer, or it reads state the last forward call left behind (outputs cached in a field) instead of its
     * arguments. Judged on VJP(−2¹⁰·v) where that is −2¹⁰ times the first pass; otherwise on VJP(v) made again. A
     * forward that throws at that other point only skips this part.
     */
    private static GradientResult afterElsewhere(CheckTarget t, Settings s, Map<String, double[]> first,
                                                 Elsewhere after, Meter start) {
        long calls = 2 + after.calls();
        if (after.scaled() == null || after.third() == null) {
            return held(CheckKind.DETERMINISM, after.scaled() == null ? 3 : calls, start.seconds());
        }
        double tol = s.nondetTol();
        Made made = new Made(calls, start);
        GradientResult stale = differing(t, first, after.third(), tol, made, (in, d) -> "the backward at the same"
                + " point gave " + in + index(d.index(), t.testInputs().get(in)) + " = " + d.first() + ", then "
                + d.second() + " after a forward at another point: it reads state the last forward left behind (e.g."
                + " cached outputs) instead of its arguments");
        GradientResult twice = stale != null ? stale : differing(t, after.scaled(), after.again(),
                Math.abs(Linearity.SCALES[0]) * tol, made, (in, d) -> "two runs of the backward with output"
                        + " gradient −2^10·v gave " + in + index(d.index(), t.testInputs().get(in)) + " = " + d.first()
                        + " and " + d.second() + " (nondet_tol " + tol + ", times 2^10)");
        return twice != null ? twice : held(CheckKind.DETERMINISM, calls, start.seconds());
    }

    /** What a row's calls were and when it started. */
    private record Made(long calls, Meter start) {}

    /** The determinism row broken at the first input whose two gradients differ by more than tol; or null. */
    private static GradientResult differing(CheckTarget t, Map<String, double[]> a, Map<String, double[]> b,
                                            double tol, Made made,
                                            java.util.function.BiFunction<String, Difference, String> note) {
        for (String in : t.wrt()) {
            if (a.get(in) == null || b.get(in) == null) {
                continue;
            }
            Difference d = Difference.of(a.get(in), b.get(in));
            if (d.max() > tol) {
                return broken(CheckKind.DETERMINISM, Verdict.NONDETERMINISTIC, At.input(in), made.calls(),
                        made.start().seconds(), note.apply(in, d));
            }
        }
        return null;
    }

    /**
     * Whether every input's VJP(scale·v) is scale times its first VJP(v), within scale·nondet_tol (both absent
     * counts as alike, one absent as not; NaN against NaN and equal infinities as alike).
     */
    private static boolean scaledAlike(CheckTarget t, Map<String, double[]> first, Map<String, double[]> scaled,
                                       double nondetTol) {
        double scale = Linearity.SCALES[0];
        for (String in : t.wrt()) {
            double[] a = first.get(in);
            double[] b = scaled.get(in);
            if (a == null || b == null) {
                if (a != b) {
                    return false;
                }
                continue;
            }
            double[] expected = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                expected[i] = scale * a[i];
            }
            if (Difference.of(expected, b).max() > Math.abs(scale) * nondetTol) {
                return false;
            }
        }
        return true;
    }

    private static GradientResult held(CheckKind kind, long evaluations, double seconds) {
        return new GradientResult("*", "*", kind, 1, Verdict.PASS, 0, 0, 0, null, evaluations, seconds, null, null);
    }

    /** Where a broken check is at fault: one input (on every output), or one output (for every input). */
    private record At(String output, String input) {

        static At input(String name) {
            return new At("*", name);
        }

        static At output(String name) {
            return new At(name, "*");
        }
    }

    private static GradientResult broken(CheckKind kind, Verdict verdict, At at, long evaluations, double seconds,
                                         String note) {
        return new GradientResult(at.output(), at.input(), kind, 1, verdict, Double.POSITIVE_INFINITY,
                Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, null, evaluations, seconds, note, null);
    }

    private static String index(int flat, INDArray of) {
        return Arrays.toString(Flat.unravel(flat, of.shape()));
    }

    /**
     * The largest elementwise difference of two equally long arrays; NaN against NaN and an infinity against the
     * same infinity count as equal (the same answer twice is deterministic, however wrong).
     */
    record Difference(double max, int index, double first, double second) {

        static Difference of(double[] a, double[] b) {
            double max = 0;
            int at = 0;
            for (int i = 0; i < a.length; i++) {
                boolean same = a[i] == b[i] || Double.isNaN(a[i]) && Double.isNaN(b[i]); // equal infinities too
                double d = same ? 0 : Double.isNaN(a[i] - b[i]) ? Double.POSITIVE_INFINITY : Math.abs(a[i] - b[i]);
                if (d > max) {
                    max = d;
                    at = i;
                }
            }
            return new Difference(max, at, a.length == 0 ? 0 : a[at], b.length == 0 ? 0 : b[at]);
        }
    }
}
