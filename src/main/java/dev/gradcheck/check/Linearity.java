package dev.gradcheck.check;

import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.LargestFinite;
import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.check.numeric.Seeded;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Defaults;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Verdict;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A backward is a vector-Jacobian product: linear in its output gradient. The Jacobian rows only ever see the
 * cotangents a mode sends (weighted sums of rows at layer sizes, one-hot rows in dense mode), so a backward with a
 * path of its own for some cotangents (a "sparse fast path" for one nonzero, a clip, |g| or max(g, 0) of the
 * incoming gradient) can agree with every cotangent the mode sent and still be wrong. This row sends the others.
 *
 * <p>Two cotangents: u, one-hot at a seeded entry of a checked output, and v, dense and Gaussian. Then
 * <ul>
 *   <li><b>additivity</b>: VJP(u + b·v) against VJP(u) + b·VJP(v), with b chosen so that both terms have the same
 *       largest entry (a wrong one-hot path then moves the sum by its own error, not by a fraction lost under the
 *       dense term). Rounding makes the two sides differ by a few ulps of that scale, so they must agree within
 *       √ε of it;</li>
 *   <li><b>homogeneity</b>: VJP(s·v) against s·VJP(v) for s = −2¹⁰ and −2⁻¹⁰. Scaling by a power of two is exact,
 *       so a linear backward gives the same bits; the same √ε margin holds anyway. A backward taking |g| or
 *       max(g, 0) fails at either (both flip the sign), one clipping or clamping the gradient fails at the
 *       magnitude it clips: the sign test and the two magnitudes in two passes, where three would test them apart.</li>
 * </ul>
 * v, VJP(v) and VJP(−2¹⁰·v) are the determinism row's cotangent, its second backward pass and its backward after
 * the forward elsewhere (SanityChecks.firstCalls says when), so this row adds three backward passes at x, whatever
 * the size. A failure names the first input at fault and the property broken.
 */
final class Linearity {

    /** The scales of the homogeneity test: each flips the sign, one clips large and one clips small. */
    static final double[] SCALES = {-1024, -1.0 / 1024};

    /** How many seeded one-hot entries are tried before taking one whose gradient is zero. */
    private static final int ONE_HOT_TRIES = 8;

    private Linearity() {}

    /**
     * @param v      a dense Gaussian output gradient on the checked outputs, zero on the others
     * @param vjpV   a backward pass at x with it, made already (its call counted where it was made); null: made here
     * @param first  VJP(SCALES[0]·v), made already (counted where it was made); null: made here
     */
    static GradientResult row(CheckTarget t, Settings s, Map<String, INDArray> v, Map<String, double[]> vjpV,
                              Map<String, double[]> first) {
        Meter start = Meter.timing();
        if (t.outputs().isEmpty() || t.wrt().isEmpty()) {
            return held(0, start);
        }
        if (t.test().clippedGraph().isPresent()) {
            return held(0, start).withNote("not judged: error_clip clips gradients, so this backward is not linear"
                    + " in its output gradient by design");
        }
        double tolerance = Math.sqrt(Defaults.epsilon(s.dtype()));
        int calls = vjpV == null ? 1 : 0;
        Map<String, double[]> atV = vjpV == null ? t.gradients(v) : vjpV;
        double scaleV = largest(atV);
        Homogeneity h = Homogeneity.judge(t, v, atV, first, tolerance * scaleV);
        calls += h.calls();
        if (h.mismatch() != null) {
            return h.mismatch().broken(calls, start, "VJP(" + describe(h.scale()) + "·v) differs from "
                    + describe(h.scale()) + "·VJP(v) for a dense Gaussian output gradient v");
        }
        OneHot u = OneHot.find(t, s);
        calls += u.calls();
        double scaleU = largest(u.vjp());
        if (scaleU == 0 || scaleV == 0 || !Double.isFinite(scaleU) || !Double.isFinite(scaleV)) {
            return held(calls, start); // nothing to weigh: a zero or non-finite side is the Jacobian rows' business
        }
        double b = scaleU / scaleV;
        Map<String, double[]> sum = t.gradients(plus(u.cotangents(), v, b));
        calls++;
        Mismatch m = Mismatch.find(t, sum, new Combination(atV, b, u.vjp(), 1), tolerance * 2 * scaleU);
        if (m != null) {
            return m.broken(calls, start, "VJP(u + b·v) differs from VJP(u) + b·VJP(v) for u one-hot at "
                    + u.where() + ", v a dense Gaussian output gradient and b = " + (float) b
                    + ": the backward is not linear in its output gradient (a path of its own for some output"
                    + " gradients?)");
        }
        return held(calls, start);
    }

    /**
     * VJP(s·v) against s·VJP(v) for each scale, the first scale's pass made already where given.
     *
     * @param mismatch the first scale's that failed, null when none did
     */
    private record Homogeneity(double scale, Mismatch mismatch, int calls) {

        static Homogeneity judge(CheckTarget t, Map<String, INDArray> v, Map<String, double[]> atV,
                                 Map<String, double[]> first, double allowedPerUnitScale) {
            int calls = 0;
            for (double scale : SCALES) {
                boolean made = scale == SCALES[0] && first != null;
                Map<String, double[]> scaled = made ? first : t.gradients(scaled(v, scale));
                calls += made ? 0 : 1;
                Mismatch m = Mismatch.find(t, scaled, new Combination(atV, scale, null, 0),
                        allowedPerUnitScale * Math.abs(scale));
                if (m != null) {
                    return new Homogeneity(scale, m, calls);
                }
            }
            return new Homogeneity(0, null, calls);
        }
    }

    /** One seeded entry of a checked output set to 1, every other output gradient zero; its VJP nonzero if any is. */
    private record OneHot(Map<String, INDArray> cotangents, Map<String, double[]> vjp, String where, int calls) {

        static OneHot find(CheckTarget t, Settings s) {
            SplittableRandom rnd = Seeded.stream(s.seed(), "linearity:one-hot");
            OneHot last = null;
            for (int attempt = 1; attempt <= ONE_HOT_TRIES; attempt++) {
                String out = t.outputs().get(rnd.nextInt(t.outputs().size()));
                INDArray y = t.testAtX().get(out);
                if (y == null || y.length() == 0 || !y.dataType().isFPType()) {
                    continue;
                }
                long at = rnd.nextLong(y.length());
                Map<String, INDArray> c = t.zeroCotangents();
                c.get(out).putScalar(Flat.unravel(at, y.shape()), 1.0); // zeros of its own, in y's shape and dtype
                Map<String, double[]> vjp = t.gradients(c);
                last = new OneHot(c, vjp, out + Arrays.toString(Flat.unravel(at, y.shape())), attempt);
                if (largest(vjp) != 0) {
                    return last;
                }
            }
            return last != null ? last : new OneHot(t.zeroCotangents(), Map.of(), "", ONE_HOT_TRIES);
        }
    }

    /**
     * a·x + c·y per input (y may be null: a·x alone), in double, entry by entry as it is read: what linearity
     * expects, compared without an array of its own per input.
     */
    private record Combination(Map<String, double[]> x, double a, Map<String, double[]> y, double c) {

        /** The input's x, or null where it has none (nothing expected there). */
        double[] xs(String in) {
            return x.get(in);
        }

        double[] ys(String in) {
            return y == null ? null : y.get(in);
        }

        /** Entry i of a·xs + c·ys, xs and ys this combination's arrays of one input. */
        double at(double[] xs, double[] ys, int i) {
            return a * xs[i] + (ys == null ? 0 : c * ys[i]);
        }
    }

    /** The first input whose entries of two results differ by more than the allowed amount, and where. */
    private record Mismatch(String input, String index, double got, double expected) {

        static Mismatch find(CheckTarget t, Map<String, double[]> got, Combination expected, double allowed) {
            for (String in : t.wrt()) {
                double[] a = got.get(in);
                double[] xs = expected.xs(in);
                if (a == null || xs == null) {
                    continue;
                }
                double[] ys = expected.ys(in);
                for (int i = 0; i < a.length; i++) {
                    double e = expected.at(xs, ys, i);
                    double d = Math.abs(a[i] - e);
                    if (d > allowed && Double.isFinite(a[i]) && Double.isFinite(e)) {
                        return new Mismatch(in, Arrays.toString(Flat.unravel(i, t.testInputs().get(in).shape())),
                                a[i], e);
                    }
                }
            }
            return null;
        }

        GradientResult broken(int calls, Meter start, String what) {
            return new GradientResult("*", input, CheckKind.LINEARITY, 1, Verdict.NONLINEAR_BACKWARD,
                    Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, null, calls,
                    start.seconds(), what + ": " + input + index + " = " + got + " where linearity gives " + expected,
                    null);
        }
    }

    static Map<String, INDArray> scaled(Map<String, INDArray> c, double scale) {
        Map<String, INDArray> out = new LinkedHashMap<>();
        c.forEach((name, a) -> out.put(name, a.dataType() == DataType.DOUBLE ? sum(null, scale, a) : a.mul(scale)));
        return out;
    }

    private static Map<String, INDArray> plus(Map<String, INDArray> u, Map<String, INDArray> v, double b) {
        Map<String, INDArray> out = new LinkedHashMap<>();
        u.forEach((name, a) -> out.put(name, a.dataType() == DataType.DOUBLE ? sum(a, b, v.get(name))
                : a.add(v.get(name).mul(b))));
        return out;
    }

    /**
     * y + s·x of float64 arrays (y null: s·x), in Java: the bits ND4J's mul and add give (each product and sum
     * rounded once, as there), without the op and the result array each of those calls makes.
     */
    private static INDArray sum(INDArray y, double s, INDArray x) {
        double[] xs = Flat.values(x);
        double[] ys = y == null ? null : Flat.values(y);
        for (int i = 0; i < xs.length; i++) {
            xs[i] = ys == null ? s * xs[i] : ys[i] + s * xs[i];
        }
        return Flat.array(xs, x.shape());
    }

    /** The largest finite |entry| over every input's gradient (0 when none). */
    private static double largest(Map<String, double[]> grads) {
        LargestFinite largest = new LargestFinite();
        for (double[] g : grads.values()) {
            for (double x : g) {
                largest.add(x);
            }
        }
        return largest.value();
    }

    private static String describe(double scale) {
        return Math.abs(scale) > 1 ? "−2^10" : "−2^-10";
    }

    private static GradientResult held(int calls, Meter start) {
        return new GradientResult("*", "*", CheckKind.LINEARITY, 1, Verdict.PASS, 0, 0, 0, null, calls,
                start.seconds(), null, null);
    }
}
