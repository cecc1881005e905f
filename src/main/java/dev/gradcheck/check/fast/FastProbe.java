package dev.gradcheck.check.fast;

import dev.gradcheck.check.dense.KinkEntry;
import dev.gradcheck.check.dense.TieCheck;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.KinkDetector;
import dev.gradcheck.check.numeric.LineNoise;
import dev.gradcheck.check.numeric.MostPreciseStep;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericTuning;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * What a fast-mode block that disagrees turns out to be, found along the random direction itself, without the full
 * Jacobian (which may not fit in memory). φ(t) = vᵀ·out(x + t·u) is probed at t = {−2, −1, −½, 0, ½, 1, 2}·h
 * ({@link KinkDetector}):
 * <ul>
 *   <li>φ smooth: the probe measures the finite difference's own error from the half step; a disagreement within
 *       it passes, one beyond it is a mismatch;</li>
 *   <li>φ has a kink along u: some elements of x sit at kinks (relu at an exact 0). They are isolated by bisection
 *       over u's support (a half of u is probed; the halves with a kink are split again), each checked to be a
 *       subgradient on its own and, several together, as a tie ({@link TieCheck}); then φ′ along u with those elements
 *       left out is compared as usual. Only the rest agreeing makes the block {@link Verdict#NONDIFFERENTIABLE}. One
 *       kink among n elements costs about 2·log₂(n) probes of 6 forward evaluations; more than
 *       {@value FastTuning#MOST_KINKS} kinks, or {@value FastTuning#MOST_PROBES} probes, and fast mode can only say
 *       whether the projection lies between φ's one-sided slopes, which the note then says.</li>
 * </ul>
 */
final class FastProbe {

    /**
     * The verdict on a fast block, with the projections it rests on.
     *
     * @param kinks the elements isolated at kinks (for ties across inputs, {@link TieCheck}); empty if none
     */
    record Outcome(Verdict verdict, double analytic, double numerical, double score, String note,
                   List<KinkEntry> kinks) {

        Outcome(Verdict verdict, double analytic, double numerical, double score, String note) {
            this(verdict, analytic, numerical, score, note, List.of());
        }

        /** The same outcome, with a sentence added to its note. */
        Outcome noting(String more) {
            return new Outcome(verdict, analytic, numerical, score, note == null ? more : note + "; " + more, kinks);
        }

        Outcome failingTies(TieCheck.Violation tie) {
            return new Outcome(Verdict.MISMATCH, analytic, numerical, Math.max(score, tie.score()),
                    "fast mode: " + tie.note(), kinks);
        }
    }

    /**
     * One input's direction u as every projection along it reads it, taken once per input: its values, the step t
     * along it ({@link NumericalDerivative#stepAlong}, a pass over the input) and how many elements it moves.
     *
     * @param values  u, flat
     * @param step    the step the derivative takes along u
     * @param support u's nonzero elements
     */
    record Direction(String in, INDArray u, double[] values, double step, long support) {

        static Direction of(String in, INDArray u, NumericalDerivative derivative) {
            double[] values = Flat.values(u);
            return new Direction(in, u, values, derivative.stepAlong(Map.of(in, u)), nonZero(values));
        }
    }

    /**
     * An output as fast mode projects it: vᵀ·out, the part of φ that does not depend on u.
     *
     * @param v         the output's cotangent, flat
     * @param base      the output at x, flat (the reference's, which every probe starts from)
     * @param magnitude the size of φ's own rounding, {@link NumericalError#projected}
     * @param support   v's nonzero elements
     */
    record ProjectedOutput(String out, double[] v, double[] base, double magnitude, long support) {

        static ProjectedOutput of(String out, INDArray v, INDArray atX) {
            double[] vFlat = Flat.values(v);
            double[] base = Flat.values(atX);
            return new ProjectedOutput(out, vFlat, base, NumericalError.projected(vFlat, base), nonZero(vFlat));
        }

        /** φ along a direction across inputs, as a single row: for {@link TieCheck}. */
        TieCheck.ProbedOutput forTies(NumericalDerivative derivative) {
            TieCheck.Lines lines = direction -> t -> new double[] {
                dot(v, Flat.values(derivative.atDirection(direction, t).get(out)))};
            return new TieCheck.ProbedOutput(lines, row -> "v'" + TieCheck.element(out, new long[0], 0),
                    new double[] {magnitude}, magnitude);
        }
    }

    private final NumericalDerivative derivative;
    private final Map<String, INDArray> inputs;
    private final Direction direction;
    private final String in;
    private final double[] gradient;
    private final ProjectedOutput output;
    private final Tolerance rule;
    private int probes;

    /**
     * @param inputs    the reference's inputs (the shape of the direction's input, and where directions start)
     * @param direction the input's direction u
     * @param gradient  the backward's vᵀJ for that input, flat
     * @param rule      the rule the projection is judged by
     */
    FastProbe(NumericalDerivative derivative, Map<String, INDArray> inputs, Direction direction, double[] gradient,
              ProjectedOutput output, Tolerance rule) {
        this.derivative = derivative;
        this.inputs = inputs;
        this.direction = direction;
        this.in = direction.in();
        this.gradient = gradient;
        this.output = output;
        this.rule = rule;
    }

    Tolerance rule() {
        return rule;
    }

    /**
     * The error a single wrong entry must have to be caught at 95% of its positions. An error e at entry (j, i) moves
     * φ′ by e·vⱼ·uᵢ, and for random unit u, v over n and m elements vⱼ·uᵢ is about z₁·z₂/√(n·m), whose magnitude is
     * below {@value FastTuning#SINGLE_ENTRY_QUANTILE}/√(n·m) at 5% of positions: what fast mode can promise, against
     * the allowance (the rule's, or the rounding bound where that is larger).
     */
    double singleEntryResolution(double numerical) {
        double allowance = Math.max(rule.allowance(numerical), roundingAlong());
        return allowance * Math.sqrt((double) direction.support() * output.support()) / FastTuning.SINGLE_ENTRY_QUANTILE;
    }

    private static long nonZero(double[] values) {
        long count = 0;
        for (double x : values) {
            count += x != 0 ? 1 : 0;
        }
        return count;
    }

    /** The rounding bound of φ′ along a direction taken with step h. */
    double roundingError(double h) {
        return NumericalError.rounding(derivative.stencil(), output.magnitude(), h);
    }

    /** The rounding bound of φ′ along u, with the step the derivative takes along it. */
    double roundingAlong() {
        return roundingError(direction.step());
    }

    /**
     * The verdict on one projection: a zero backward against a non-zero numerical derivative fails whatever the
     * tolerance; an agreement within the rule passes; anything else, within the rounding bound or not, is looked at
     * more closely along u (kinks, the finite difference's own error at its most precise step).
     */
    Outcome verdict(double analytic, double numerical, boolean analyticZero, double noiseFloor) {
        if (analyticZero && Math.abs(numerical) > noiseFloor) {
            return new Outcome(Verdict.ZERO_GRADIENT, analytic, numerical, rule.score(analytic, numerical),
                    null);
        }
        if (analyticZero) { // no scale to be relative to: a numerical value within the noise is a zero
            return new Outcome(Verdict.PASS, analytic, numerical, Math.abs(numerical) / noiseFloor, null);
        }
        double score = JacobianComparison.score(rule, analytic, numerical, roundingAlong());
        if (rule.score(analytic, numerical) <= NumericTuning.AGAIN_ABOVE) {
            return new Outcome(Verdict.PASS, analytic, numerical, score, null);
        }
        // near or beyond the tolerance, within the rounding bound or not: judged at the most precise step
        if (!Double.isFinite(analytic) || !Double.isFinite(numerical)) {
            return new Outcome(Verdict.MISMATCH, analytic, numerical, score, null);
        }
        return resolve(analytic, numerical);
    }

    /**
     * @param analytic  (vᵀJ)·u from the backward
     * @param numerical φ′(0) from the stencil
     */
    Outcome resolve(double analytic, double numerical) {
        INDArray u = direction.u();
        double h = direction.step();
        KinkDetector.Probe p = probe(u, h, analytic);
        if (!p.kinks()[0]) {
            Outcome modelled = smooth(analytic, numerical, p, roundingError(h));
            if (modelled.verdict() != Verdict.MISMATCH) {
                return modelled;
            }
            // only a failure is judged again with the noise measured: a pass keeps the model's bound, so no passing
            // verdict moves, and a projection that agrees costs no more evaluations
            KinkDetector.Line phi = line(u);
            double noise = LineNoise.level(t -> phi.at(t)[0], h, 0);
            double measured = NumericalError.fromNoise(derivative.stencil(), noise, h);
            if (!(measured > roundingError(h))) {
                return modelled;
            }
            return smooth(analytic, numerical, p, measured).noting("fast mode: the forward's noise along u, measured"
                    + " (standard deviation " + figure(noise) + "), bounds the finite differences at "
                    + figure(measured / roundingError(h)) + " times the rounding model's bound");
        }
        List<KinkEntry> kinks = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        if (!isolate(support(u), u, p, kinks, wrong)) {
            // several kinks along u may bend different ways, so only a value inside φ's slopes is known to be fine
            boolean between = p.kind() == KinkDetector.Kind.KINK;
            return new Outcome(between ? Verdict.NONDIFFERENTIABLE : Verdict.MISMATCH, analytic, numerical,
                    rule.score(analytic, numerical), "fast mode: v'Jx has a kink along u that " + probes + " probes"
                    + " could not isolate; the backward's v'Ju " + figure(analytic) + " lies "
                    + (between ? "between" : "outside") + " its one-sided slopes " + slopes(p) + ", which is all fast"
                    + " mode can tell there (max_elements or full mode judge every element)");
        }
        if (!wrong.isEmpty()) {
            return new Outcome(Verdict.MISMATCH, analytic, numerical, rule.score(analytic, numerical), "fast mode: "
                    + wrong.get(0) + " sits at a kink, but the backward's value there is outside the one-sided"
                    + " slopes (not a subgradient)", kinks);
        }
        INDArray rest = u.dup();
        kinks.forEach(k -> rest.putScalar(k.flatCol(), 0));
        double a = dot(gradient, Flat.values(rest));
        Map<String, INDArray> direction = Map.of(in, rest);
        double n = dot(output.v(), derivative.along(direction).get(output.out()));
        double bound = roundingError(derivative.stepAlong(direction));
        double score = JacobianComparison.score(rule, a, n, bound);
        if (score > 1) {
            KinkDetector.Probe again = probe(rest, a);
            bound = again.kinks()[0] ? bound : Math.max(bound, again.errors()[0]);
            score = JacobianComparison.score(rule, a, n, bound);
        }
        String names = kinks.stream().map(k -> name(k.flatCol())).limit(4).reduce((x, y) -> x + ", " + y).orElse("")
                + (kinks.size() > 4 ? ", ..." : "");
        String where = kinks.size() + (kinks.size() == 1 ? " element" : " elements") + " of " + in + " at a kink ("
                + names + "), isolated by " + probes + " probes along u and left out";
        return score <= 1
                ? new Outcome(Verdict.NONDIFFERENTIABLE, a, n, score, "fast mode: " + where + "; the backward gives"
                        + " a subgradient there, and the rest of the projection agrees", kinks)
                : new Outcome(Verdict.MISMATCH, a, n, score, "fast mode: " + where + "; the rest of the projection"
                        + " still disagrees (v'Ju analytic " + figure(a) + ", numerical " + figure(n) + ")", kinks);
    }

    /**
     * The verdict on a projection along which φ is smooth, judged at its most precise step.
     *
     * @param rounding the bound on φ′'s rounding at the step h along u: the model's, or the forward's measured noise
     */
    private Outcome smooth(double analytic, double numerical, KinkDetector.Probe p, double rounding) {
        double h = direction.step();
        MostPreciseStep.Estimate precise = mostPrecise(direction.u(), h, p, analytic, rounding);
        double n = precise.step() == h ? numerical : precise.value();
        double bound = precise.bound();
        double score = JacobianComparison.score(rule, analytic, n, bound);
        String at = precise.step() == h ? "" : " at the more precise step " + figure(precise.step());
        if (score > 1) {
            return new Outcome(Verdict.MISMATCH, analytic, n, score, at.isEmpty() ? null : "fast mode: v'Ju"
                    + " judged" + at + ", where the finite differences' own error is " + figure(bound));
        }
        return new Outcome(Verdict.PASS, analytic, n, score, !(rule.score(analytic, n) > 1)
                ? (at.isEmpty() ? null : "fast mode: v'Ju judged" + at)
                : "fast mode: v'Ju differs by more than the tolerance but less than the finite differences' own"
                + " error (" + figure(bound) + ")" + at);
    }

    /**
     * φ′ along u at the step whose error bound is smallest ({@link MostPreciseStep}), from the probe at h.
     *
     * @param rounding the rounding share of φ′'s bound at h, which the other steps' shares scale from
     */
    private MostPreciseStep.Estimate mostPrecise(INDArray u, double h, KinkDetector.Probe p, double analytic,
                                                 double rounding) {
        MostPreciseStep.Estimate atH = MostPreciseStep.Estimate.of(p, 0, rounding, h);
        return MostPreciseStep.choose(line(u), h, new MostPreciseStep.Rows(new int[] {0}, new double[] {analytic}),
                new MostPreciseStep.Estimate[] {atH}, output.magnitude(), derivative.stencil())[0];
    }

    /** φ(t) − φ(0) along u, as Σ vⱼ·(yⱼ(t) − yⱼ(0)): one row. */
    private KinkDetector.Line line(INDArray u) {
        Map<String, INDArray> along = Map.of(in, u);
        double[] v = output.v();
        double[] base = output.base();
        return t -> {
            double[] y = Flat.values(derivative.atDirection(along, t).get(output.out()));
            double sum = 0;
            for (int j = 0; j < base.length; j++) {
                sum += v[j] * (y[j] - base[j]);
            }
            return new double[] {sum};
        };
    }

    /**
     * Splits {@code support}, along which φ has a kink, until each kink is one element. A half is probed; when the
     * first half shows none, the kink is in the second, which is then split without a probe of its own (a probe is
     * still taken of every single element, for its slopes).
     *
     * @param p the probe along {@code support}, or null when none was taken
     * @return false when the kinks could not all be isolated within the budget
     */
    private boolean isolate(int[] support, INDArray u, KinkDetector.Probe p, List<KinkEntry> kinks,
                            List<String> wrong) {
        if (support.length == 1) {
            int i = support[0];
            INDArray w = restricted(u, support);
            KinkDetector.Probe q = p != null ? p : probe(w, dot(gradient, Flat.values(w)));
            if (!q.kinks()[0]) {
                return false;
            }
            double ui = u.getDouble(i);
            // slopes along uᵢ·eᵢ, back to slopes along eᵢ (a negative uᵢ walks the element backwards)
            double minus = (ui > 0 ? q.slopeMinus()[0] : q.slopePlus()[0]) / ui;
            double plus = (ui > 0 ? q.slopePlus()[0] : q.slopeMinus()[0]) / ui;
            kinks.add(new KinkEntry(in, 0, 0, i, i, gradient[i], minus, plus));
            if (q.kind() == KinkDetector.Kind.WRONG_AT_KINK) {
                wrong.add(name(i));
            }
            return kinks.size() <= FastTuning.MOST_KINKS;
        }
        int half = support.length / 2;
        int[] first = Arrays.copyOfRange(support, 0, half);
        int[] second = Arrays.copyOfRange(support, half, support.length);
        if (probes >= FastTuning.MOST_PROBES) {
            return false;
        }
        INDArray w = restricted(u, first);
        KinkDetector.Probe q = probe(w, dot(gradient, Flat.values(w)));
        if (!q.kinks()[0]) {
            return isolate(second, u, null, kinks, wrong);
        }
        if (!isolate(first, u, q, kinks, wrong) || probes >= FastTuning.MOST_PROBES) {
            return false;
        }
        INDArray rest = restricted(u, second);
        KinkDetector.Probe r = probe(rest, dot(gradient, Flat.values(rest)));
        return !r.kinks()[0] || isolate(second, u, r, kinks, wrong);
    }

    /**
     * Probes φ along w. φ is taken as Σ vⱼ·(yⱼ(t) − yⱼ(0)), differences first, so that outputs w does not move add
     * nothing, not even rounding; and the rounding floor counts only the outputs that moved. φ(0) = 0 needs no
     * evaluation: 6 forward evaluations per probe.
     */
    private KinkDetector.Probe probe(INDArray w, double analytic) {
        return probe(w, derivative.stepAlong(Map.of(in, w)), analytic);
    }

    /** {@link #probe(INDArray, double)} with the step along w already known. */
    private KinkDetector.Probe probe(INDArray w, double h, double analytic) {
        probes++;
        Map<String, INDArray> along = Map.of(in, w);
        double[] offsets = KinkDetector.offsets();
        double[][] y = new double[offsets.length][];
        for (int k = 0; k < offsets.length; k++) {
            y[k] = offsets[k] == 0 ? null
                    : Flat.values(derivative.atDirection(along, offsets[k] * h).get(output.out()));
        }
        double[] v = output.v();
        double[] base = output.base();
        double[] phi = new double[offsets.length];
        double[] moved = new double[base.length];
        for (int j = 0; j < base.length; j++) {
            boolean changed = false;
            for (int k = 0; k < offsets.length; k++) {
                double d = y[k] == null ? 0 : y[k][j] - base[j];
                phi[k] += v[j] * d;
                changed |= d != 0;
            }
            moved[j] = changed ? base[j] : 0;
        }
        return KinkDetector.probe(t -> new double[] {phi[indexOf(offsets, t / h)]}, h, new int[] {0},
                new double[] {analytic}, NumericalError.projected(v, moved), derivative.stencil());
    }

    private static int indexOf(double[] offsets, double offset) {
        for (int k = 0; k < offsets.length; k++) {
            if (offsets[k] == offset) {
                return k;
            }
        }
        throw new IllegalArgumentException("no probe point at " + offset);
    }

    private static int[] support(INDArray u) {
        double[] values = Flat.values(u);
        return java.util.stream.IntStream.range(0, values.length).filter(i -> values[i] != 0).toArray();
    }

    /** u with every element outside {@code part} set to 0. */
    private static INDArray restricted(INDArray u, int[] part) {
        double[] all = Flat.values(u);
        double[] w = new double[all.length];
        for (int i : part) {
            w[i] = all[i];
        }
        return Nd4j.createFromArray(w).reshape('c', u.shape());
    }

    private String name(int flat) {
        return in + Arrays.toString(Flat.unravel(flat, inputs.get(in).shape()));
    }

    private static String slopes(KinkDetector.Probe p) {
        return "[" + figure(Math.min(p.slopeMinus()[0], p.slopePlus()[0])) + ", "
                + figure(Math.max(p.slopeMinus()[0], p.slopePlus()[0])) + "]";
    }

    private static String figure(double x) {
        return String.format(Locale.ROOT, "%.6g", x);
    }

    static double dot(double[] a, double[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
