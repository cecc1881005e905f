package dev.gradcheck.check.fast;

import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.WorstElement;
import dev.gradcheck.spec.Tolerance;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A failing fast row after {@link EntryNarrowing}: the entries it named as the row's worst element and mismatches,
 * as a dense row names them, the projection's own values in its note; or, where it named none, the fast row as it
 * was, saying so.
 */
final class NarrowedRow {

    private NarrowedRow() {}

    /** Whether a fast row names entries narrowing found: it is not rechecked in full. */
    static boolean named(GradientResult r) {
        return r.mismatches() != null && r.mismatches().count() > 0;
    }

    static GradientResult of(CheckTarget t, GradientResult fast, EntryNarrowing.Found f) {
        String tested = f.tests() + " halves tested, " + f.backward() + " backward passes, "
                + (f.cost().evaluations() - f.backward()) + " forward evaluations";
        if (f.entries().isEmpty()) {
            return withCost(fast, f).withNote("narrowing it by halving u and v named no entry (" + f.judged()
                    + " judged alone, " + tested + ")");
        }
        long[] outShape = t.refAtX().get(fast.output()).shape();
        long[] inShape = t.refInputs().get(fast.input()).shape();
        List<WorstElement> named = f.entries().stream().map(e -> new WorstElement(Flat.unravel(e.out(), outShape),
                Flat.unravel(e.in(), inShape), e.analytic(), e.numerical())).toList();
        double maxAbs = f.entries().stream().mapToDouble(e -> Math.abs(e.analytic() - e.numerical())).max()
                .orElseThrow();
        double maxRel = f.entries().stream().mapToDouble(e -> Tolerance.relativeError(e.analytic(), e.numerical()))
                .max().orElseThrow();
        int count = named.size();
        Mismatches found = new Mismatches(count, f.judged(), 0, null,
                named.subList(0, Math.min(Mismatches.TOP, count)), null, null);
        WorstElement p = fast.worst();
        String note = "fast mode " + fast.verdict().reportName() + " (v'Ju analytic " + p.analytic()
                + ", numerical " + p.numerical() + ")" + (fast.note() == null ? "" : "; " + fast.note())
                + "; narrowed by halving u's and v's supports, with fresh random"
                + " weights per half (" + tested + "): at least " + count + (count == 1 ? " entry mismatches"
                : " entries mismatch") + " judged alone" + (f.capped() ? ", where narrowing stopped at its limit" : "")
                + ": " + named.stream().map(w -> entry(fast, w)).collect(Collectors.joining("; "))
                + "; not rechecked in full";
        return new GradientResult(fast.output(), fast.input(), fast.kind(), fast.order(), fast.verdict(), maxAbs,
                maxRel, f.entries().get(0).score(), named.get(0), fast.evaluations() + f.cost().evaluations(),
                fast.seconds() + f.cost().seconds(), note, null, found, null);
    }

    private static GradientResult withCost(GradientResult r, EntryNarrowing.Found f) {
        return new GradientResult(r.output(), r.input(), r.kind(), r.order(), r.verdict(), r.maxAbsError(),
                r.maxRelError(), r.maxScore(), r.worst(), r.evaluations() + f.cost().evaluations(),
                r.seconds() + f.cost().seconds(), r.note(), r.sampling(), r.mismatches(), r.jacobians());
    }

    /** {@code out[0, 3] / x[1, 2] analytic …, numerical …}, a numbered output called {@code out} as reports do. */
    private static String entry(GradientResult r, WorstElement w) {
        String out = r.output().chars().allMatch(Character::isDigit) ? "out" : r.output();
        return out + index(w.outputIndex()) + " / " + r.input() + index(w.inputIndex()) + " analytic "
                + figure(w.analytic()) + ", numerical " + figure(w.numerical());
    }

    private static String index(long[] index) {
        return index.length == 0 ? "" : Arrays.toString(index);
    }

    private static String figure(double x) {
        return String.format(Locale.ROOT, "%.6g", x);
    }
}
