package dev.gradcheck.check.dense;

import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.KinkDetector;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.result.Stencil;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Ties: several input elements at the same kink of one output element (max of equal values, a pooling window whose
 * maxima are equal). Each entry judged alone may be a subgradient while the backward as a whole is not: a backward
 * that gives the full gradient to both of two equal inputs of max passes each input's bracket [0, 1], but moves
 * max(x, y) by 2 along x = y, where the op moves by 1. The subgradient condition is a condition on the whole
 * gradient g: along any direction d, g·d must lie between the op's one-sided slopes along d.
 *
 * <p>The direction tested moves every tied element up its own piece: d = Σ σᵢ·eᵢ, σᵢ the sign of the element's
 * non-zero one-sided slope (for max and min of equal values, all +1: x and y together). Along it the pieces move alike,
 * so the op is smooth there and g·d must equal its slope (under the tolerance and the numerical side's error); where it
 * is not smooth, g·d must lie between the one-sided slopes. This is sound for ties whose kinks all bend the same way
 * (max, min, pooling, norms: convex or concave around the point), which is the only case tested: ties with kinks of
 * both signs are left alone. One probe (6 forward evaluations) per output element with a tie, at most
 * {@value DenseTuning#MOST_TIES} per output; entries that agree with the central difference are not part of a tie here
 * (they were never probed).
 */
public final class TieCheck {

    private TieCheck() {}

    /** The line a probe follows along a direction across inputs (per output element, or a projection of them). */
    @FunctionalInterface
    public interface Lines {
        KinkDetector.Line along(Map<String, INDArray> direction);
    }

    /** Lines through the reference's outputs: each output element is a row. */
    public static Lines of(NumericalDerivative derivative, String out) {
        return direction -> t -> Flat.values(derivative.atDirection(direction, t).get(out));
    }

    /**
     * A tie the backward gets wrong, as one input sees it.
     *
     * @param note  what is wrong, for the report
     * @param score how far outside the allowance the tie's joint derivative lies (above 1)
     * @param entry the input's first element in the tie
     * @param joint the backward's derivative along the tie's joint direction
     * @param op    the op's there (the nearer one-sided slope where it has a kink along it)
     */
    public record Violation(String note, double score, KinkEntry entry, double joint, double op) {}

    /**
     * The output the ties are probed on.
     *
     * @param lines      its lines through the reference's outputs
     * @param rowName    how the report names one of its rows ({@code out[0, 1]})
     * @param magnitudes |y| per row, for the rounding bound
     * @param scale      the largest |y|, for the probe's rounding floor
     */
    public record ProbedOutput(Lines lines, java.util.function.IntFunction<String> rowName, double[] magnitudes,
                        double scale) {}

    /**
     * @param kinks  the kink entries of every block of one output
     * @param inputs the reference's inputs (shapes, for the directions and the names of elements)
     * @return per input whose gradient takes part in a tie the backward gets wrong, the first such tie; empty if
     *         none does
     */
    public static Map<String, Violation> violations(List<KinkEntry> kinks, NumericalDerivative derivative,
                                          Map<String, INDArray> inputs, ProbedOutput output, Tolerance rule) {
        Map<Integer, List<KinkEntry>> byRow = new LinkedHashMap<>();
        for (KinkEntry k : kinks) {
            byRow.computeIfAbsent(k.flatRow(), r -> new ArrayList<>()).add(k);
        }
        Map<String, Violation> found = new LinkedHashMap<>();
        int tested = 0;
        for (Map.Entry<Integer, List<KinkEntry>> tie : byRow.entrySet()) {
            for (List<KinkEntry> members : pieces(tie.getValue())) {
                if (members.size() < 2 || ++tested > DenseTuning.MOST_TIES) {
                    continue;
                }
                Violation v = judge(members, derivative, inputs, output, tie.getKey(), rule);
                if (v != null) {
                    for (KinkEntry k : members) {
                        found.putIfAbsent(k.input(), new Violation(v.note(), v.score(), k, v.joint(), v.op()));
                    }
                }
            }
        }
        return found;
    }

    /**
     * The tied entries that lie on a piece of their own (σ ≠ 0), in groups whose kinks bend the same way: ties of
     * max bend up, of min down; a group of each bend is tested on its own.
     */
    private static List<List<KinkEntry>> pieces(List<KinkEntry> entries) {
        List<KinkEntry> up = new ArrayList<>();
        List<KinkEntry> down = new ArrayList<>();
        for (KinkEntry k : entries) {
            double jump = k.slopePlus() - k.slopeMinus();
            if (sign(k) != 0 && jump != 0) {
                (jump > 0 ? up : down).add(k);
            }
        }
        return List.of(up, down);
    }

    /**
     * +1 or −1: the sign of the slope of the element's own piece, the one-sided slope larger in magnitude (for max,
     * 1 beside 0); 0 when they cancel (|x| at 0: no piece of its own to move up).
     */
    private static int sign(KinkEntry k) {
        return (int) Math.signum(k.slopeMinus() + k.slopePlus());
    }

    /** One tie, at output row {@code row}: null when the backward's joint derivative is right. */
    private static Violation judge(List<KinkEntry> members, NumericalDerivative derivative,
                                   Map<String, INDArray> inputs, ProbedOutput output, int row, Tolerance rule) {
        String rowName = output.rowName().apply(row);
        double magnitude = output.magnitudes()[row];
        Stencil stencil = derivative.stencil();
        Map<String, INDArray> direction = new LinkedHashMap<>();
        double analytic = 0;
        StringBuilder names = new StringBuilder();
        for (KinkEntry k : members) {
            INDArray x = inputs.get(k.input());
            INDArray d = direction.computeIfAbsent(k.input(), n -> Nd4j.zeros(DataType.DOUBLE, x.shape()));
            d.putScalar(k.flatCol(), sign(k));
            analytic += sign(k) * k.analytic();
            names.append(names.isEmpty() ? (sign(k) > 0 ? "" : "-") : (sign(k) > 0 ? " + " : " - "))
                    .append(k.input()).append(Arrays.toString(Flat.unravel(k.flatCol(), x.shape())));
        }
        double h = derivative.stepAlong(direction);
        KinkDetector.Probe p = KinkDetector.probe(output.lines().along(direction), h, new int[] {row},
                new double[] {analytic}, output.scale(), stencil);
        String where = rowName + ": " + names + " tie at a kink; along that joint direction the backward's gradients"
                + " add up to " + figure(analytic);
        if (p.kinks()[0]) {
            double low = Math.min(p.slopeMinus()[0], p.slopePlus()[0]);
            double high = Math.max(p.slopeMinus()[0], p.slopePlus()[0]);
            double nearer = analytic < low ? low : high;
            return p.kind() != KinkDetector.Kind.WRONG_AT_KINK ? null : new Violation(where + ", outside the op's"
                    + " one-sided slopes " + figure(low) + " and " + figure(high) + ": not a subgradient of the op as a"
                    + " whole", Math.max(rule.score(analytic, nearer), 1), null, analytic, nearer);
        }
        double slope = (p.slopeMinus()[0] + p.slopePlus()[0]) / 2; // the central difference at h/2
        double bound = Math.max(p.errors()[0], NumericalError.rounding(stencil, magnitude, h / 2));
        double score = JacobianComparison.score(rule, analytic, slope, bound);
        return score <= 1 ? null : new Violation(where + " where the op's slope is " + figure(slope) + ": not a"
                + " subgradient of the op as a whole (each entry alone is one; a tie's gradient must be shared, not"
                + " given to each in full)", score, null, analytic, slope);
    }

    /**
     * A passing row that a tie of its input fails: a mismatch, whose worst element is the input's entry in the tie
     * and whose error is the tie's own where that is the larger.
     */
    public static JacobianComparison.Row failing(JacobianComparison.Row row, Violation tie, WorstElement worst) {
        double off = Math.abs(tie.joint() - tie.op());
        return new JacobianComparison.Row(Verdict.MISMATCH, Math.max(row.maxAbs(), off),
                Math.max(row.maxRel(), Tolerance.relativeError(tie.joint(), tie.op())), tie.score(), worst,
                row.withinError(), row.largestError());
    }

    /**
     * An output element as reports name it: {@code out[0, 1]} for a numbered output, {@code name[0, 1]} for a named
     * one.
     */
    public static String element(String out, long[] shape, int flat) {
        String label = out.chars().allMatch(Character::isDigit) ? "out" : out;
        return shape.length == 0 ? label : label + Arrays.toString(Flat.unravel(flat, shape));
    }

    private static String figure(double v) {
        return String.format(Locale.ROOT, "%.6g", v);
    }
}
