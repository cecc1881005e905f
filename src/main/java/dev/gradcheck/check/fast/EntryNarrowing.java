package dev.gradcheck.check.fast;

import dev.gradcheck.check.jacobian.AnalyticJacobian;
import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.numeric.Seeded;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A failing fast projection narrowed to the Jacobian entries that make it fail, by group testing, without the
 * block: first the outputs, then, per output found, the inputs.
 * <ol>
 *   <li>Outputs: the derivative along the projection's own u is taken once for every output (one stencil: J·u
 *       numerically). v's support is halved; a half is tested with fresh weights w on it, (wᵀJ)·u from one backward
 *       pass with cotangent w against wᵀ(J·u); a half that disagrees is halved again, and its sibling is tested
 *       too (both are followed when both disagree). A half that agrees leaves the disagreement to its sibling,
 *       which is then halved without a test of its own.</li>
 *   <li>Inputs, per output i reached alone: one backward pass with cotangent eᵢ gives row i of the analytic
 *       Jacobian, all of it. u's support is halved the same way; a half is tested with fresh weights w on it: the
 *       row's w-weighted sum against the derivative of outᵢ along w (one stencil: 2 forwards centrally).</li>
 *   <li>An entry (i, j) reached alone is judged as fast mode judges a projection, under the dense judge's rule:
 *       analytic J[i, j] from the row, numerical from the stencil along eⱼ alone at its own step, probed for kinks
 *       and at its most precise step where it disagrees ({@link FastProbe}). Only an entry that fails there is
 *       named; a masked entry never is.</li>
 * </ol>
 * The weights are random signs times magnitudes uniform in [½, 3⁄2), drawn afresh for every half from the spec's
 * seed: never near zero, so one wrong entry is not diluted by a small weight, and continuous, so wrong entries in
 * one half cancel exactly only with probability zero (nearly, below the tolerance, with a probability that
 * shrinks as their errors grow past it). Halving stops at {@value FastTuning#MOST_NAMED} entries named or
 * {@value FastTuning#MOST_NARROWING_TESTS} halves tested: what it names is a lower bound either way. One wrong
 * entry among n inputs and m outputs costs about 1.5·log₂ m backward passes and 3·log₂ n forward evaluations.
 */
final class EntryNarrowing {

    /**
     * One entry that fails judged alone.
     *
     * @param out flat index into the output
     * @param in  flat index into the input
     */
    record Entry(long out, long in, double analytic, double numerical, double score) {}

    /**
     * What narrowing found.
     *
     * @param entries  the entries named, worst first
     * @param judged   entries judged alone, named or not
     * @param capped   whether it stopped at its limits, so that more may fail than it looked at
     * @param tests    halves tested
     * @param cost     its forward evaluations plus backward passes, and its time
     * @param backward of those, the backward passes
     */
    record Found(List<Entry> entries, int judged, boolean capped, int tests, Meter.Cost cost, long backward) {}

    private final CheckTarget t;
    private final Settings s;
    private final String out;
    private final String in;
    private final double[] u;
    private final Counter forwards = new Counter();
    private final NumericalDerivative derivative;
    private final SplittableRandom random;
    private final double[] base;
    private final double noise;
    private final List<Entry> entries = new ArrayList<>();
    private double[] alongU;
    private double stepU;
    /** Backward passes, counted where forwards are so that a check's time limit stops narrowing at either. */
    private final Counter backward = new Counter();
    private int tests;
    private int judged;

    private EntryNarrowing(CheckTarget t, Settings s, String out, String in, INDArray u) {
        this.t = t;
        this.s = s;
        this.out = out;
        this.in = in;
        this.u = Flat.values(u);
        this.derivative = t.numerical(s, forwards).eachElementAlong();
        this.random = Seeded.stream(s.samplingSeed(), "fast-narrow:" + out + ":" + in);
        this.base = Flat.values(t.refAtX().get(out));
        this.noise = t.forwardNoise(out);
    }

    /**
     * Narrows the failing projection of input {@code in} onto output {@code out}.
     *
     * @param u the projection's direction for the input (masked columns zero)
     * @param v the projection's cotangent for the output (masked rows zero)
     */
    static Found narrow(CheckTarget t, Settings s, String out, String in, INDArray u, INDArray v) {
        EntryNarrowing n = new EntryNarrowing(t, s, out, in, u);
        Meter meter = Meter.timing();
        Map<String, INDArray> direction = Map.of(in, u);
        n.stepU = n.derivative.stepAlong(direction);
        n.alongU = n.derivative.along(direction, n.stepU).get(out);
        n.outputs(support(Flat.values(v)), true);
        List<Entry> worstFirst = new ArrayList<>(n.entries);
        worstFirst.sort((a, b) -> Double.compare(b.score(), a.score()));
        return new Found(worstFirst, n.judged, n.stopped(), n.tests,
                meter.cost().plusEvaluations(n.forwards.value() + n.backward.value()), n.backward.value());
    }

    private boolean stopped() {
        return entries.size() >= FastTuning.MOST_NAMED || tests >= FastTuning.MOST_NARROWING_TESTS;
    }

    /** Halves outputs known (or left) to disagree down to single outputs. */
    private void outputs(int[] part, boolean tested) {
        if (stopped()) {
            return;
        }
        if (part.length == 1) {
            row(part[0], tested);
            return;
        }
        int[][] halves = halves(part);
        boolean first = outputsDisagree(halves[0]);
        if (first) {
            outputs(halves[0], true);
        }
        if (!first) {
            outputs(halves[1], false);
        } else if (!stopped() && outputsDisagree(halves[1])) {
            outputs(halves[1], true);
        }
    }

    /** (wᵀJ)·u against wᵀ(J·u), w fresh weights on these outputs. */
    private boolean outputsDisagree(int[] part) {
        double[] w = weights(part, base.length);
        double[] g = backwardRow(w);
        return disagrees(dot(g, u), dot(w, alongU), rootSumOfSquares(g, u), NumericalError.projected(w, base),
                stepU);
    }

    /** Output i alone: its analytic row, then its inputs halved where the row disagrees along u. */
    private void row(int i, boolean tested) {
        double[] w = new double[base.length];
        w[i] = 1;
        double[] row = backwardRow(w);
        if (!tested && !disagrees(dot(row, u), alongU[i], rootSumOfSquares(row, u),
                NumericalError.projected(w, base), stepU)) {
            return; // the disagreement left to this output was not one
        }
        inputs(new Row(i, row, magnitude(i)), support(u));
    }

    /** One output's analytic row, and the rounding magnitude of its value. */
    private record Row(int i, double[] analytic, double magnitude) {}

    private double magnitude(int i) {
        return NumericalError.projected(new double[] {1}, new double[] {base[i]});
    }

    /** Halves inputs along which the row disagrees down to single entries, which are judged. */
    private void inputs(Row r, int[] part) {
        if (stopped()) {
            return;
        }
        if (part.length == 1) {
            judge(r, part[0]);
            return;
        }
        int[][] halves = halves(part);
        boolean first = inputsDisagree(r, halves[0]);
        if (first) {
            inputs(r, halves[0]);
        }
        if (!first) {
            inputs(r, halves[1]);
        } else if (!stopped() && inputsDisagree(r, halves[1])) {
            inputs(r, halves[1]);
        }
    }

    /** The row's w-weighted sum against d outᵢ / dt along w, w fresh weights on these inputs. */
    private boolean inputsDisagree(Row r, int[] part) {
        double[] w = weights(part, u.length);
        Map<String, INDArray> direction = Map.of(in, Flat.array(w, t.refInputs().get(in).shape()));
        double h = derivative.stepAlong(direction);
        double numerical = derivative.along(direction, h).get(out)[r.i()];
        return disagrees(dot(r.analytic(), w), numerical, rootSumOfSquares(r.analytic(), w), r.magnitude(), h);
    }

    /** Entry (i, j) alone, judged as a fast projection along eⱼ onto eᵢ under the entry's own rule. */
    private void judge(Row r, int j) {
        judged++;
        long[] outShape = t.refAtX().get(out).shape();
        long[] inShape = t.refInputs().get(in).shape();
        if (masked(Flat.unravel(r.i(), outShape), Flat.unravel(j, inShape))) {
            return;
        }
        double[] ej = new double[u.length];
        ej[j] = 1;
        FastProbe.Direction direction = FastProbe.Direction.of(in, Flat.array(ej, inShape), derivative);
        double numerical = derivative.along(Map.of(in, direction.u()), direction.step()).get(out)[r.i()];
        double analytic = r.analytic()[j];
        double[] ei = new double[base.length];
        ei[r.i()] = 1;
        Tolerance rule = s.toleranceFor(noise, Math.max(largest(r.analytic()), Math.abs(numerical)));
        FastProbe probe = new FastProbe(derivative, t.refInputs(), direction, r.analytic(),
                FastProbe.ProjectedOutput.of(out, Flat.array(ei, outShape), t.refAtX().get(out)), rule);
        FastProbe.Outcome o = probe.verdict(analytic, numerical, analytic == 0,
                JacobianComparison.noiseFloor(t.scale(out), s.delta()));
        if (!o.verdict().passed()) {
            entries.add(new Entry(r.i(), j, o.analytic(), o.numerical(), o.score()));
        }
    }

    private boolean masked(long[] outIndex, long[] inIndex) {
        return s.mask().rules().stream().anyMatch(rule -> rule.concerns(out, in) && rule.covers(outIndex, inIndex));
    }

    /** A half tested: outside the projection rule and outside the rounding of its finite difference. */
    private boolean disagrees(double analytic, double numerical, double scale, double magnitude, double h) {
        tests++;
        Tolerance rule = s.toleranceForProjection(noise, scale);
        double bound = NumericalError.rounding(derivative.stencil(), magnitude, h);
        return !(JacobianComparison.score(rule, analytic, numerical, bound) <= 1);
    }

    /** One backward pass with this cotangent on the output, the input's gradient flat (zeros where it gives none). */
    private double[] backwardRow(double[] cotangent) {
        backward.add(1);
        Map<String, INDArray> cotangents = t.cotangentsOn(out, Flat.array(cotangent, t.testAtX().get(out).shape()));
        INDArray g = t.test().vjpTransient(t.testInputs(), cotangents, List.of(in)).get(in);
        return g == null ? new double[u.length] : AnalyticJacobian.flatGradient(g, t.testInputs().get(in), in);
    }

    /** Random signs times magnitudes in [½, 3⁄2) on {@code part}, zero elsewhere. */
    private double[] weights(int[] part, int length) {
        double[] w = new double[length];
        for (int k : part) {
            w[k] = (random.nextBoolean() ? 1 : -1) * (0.5 + random.nextDouble());
        }
        return w;
    }

    private static int[][] halves(int[] part) {
        int half = part.length / 2;
        return new int[][] {Arrays.copyOfRange(part, 0, half), Arrays.copyOfRange(part, half, part.length)};
    }

    private static int[] support(double[] values) {
        return IntStream.range(0, values.length).filter(k -> values[k] != 0).toArray();
    }

    private static double dot(double[] a, double[] b) {
        return FastProbe.dot(a, b);
    }

    private static double rootSumOfSquares(double[] g, double[] w) {
        double sum = 0;
        for (int k = 0; k < g.length; k++) {
            sum += g[k] * w[k] * g[k] * w[k];
        }
        return Math.sqrt(sum);
    }

    private static double largest(double[] values) {
        double m = 0;
        for (double x : values) {
            m = Math.max(m, Math.abs(x));
        }
        return m;
    }
}
