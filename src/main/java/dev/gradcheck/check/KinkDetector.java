package dev.gradcheck.check;

import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Tells a kink from a smooth point using the finite-difference values themselves. With one-sided slopes s₊, s₋
 * over a step h and S₊, S₋ over 2h, the leftover L(h) = (S₊ − S₋) − 2(s₊ − s₋) is O(h³) at a smooth point (it
 * shrinks 8-fold when h halves) but about −J at a kink with a jump J in the derivative (relu at 0, abs at 0, max
 * with ties, a clip edge), whatever h. So a column is a kink only when L is large at h = δ <em>and</em> stays large at
 * h = δ/2; a coarse δ on a smooth but sharply curved function (tan near its pole) is not mistaken for one.
 *
 * <p>At a kink no derivative exists, but a backward must still return one of the one-sided slopes or a value
 * between them (a subgradient): relu at 0 may say 0, 1 or ½, not −100. {@link Probe#KINK} is returned only when every
 * analytic value given lies in that range; otherwise {@link Probe#WRONG_AT_KINK}. Only columns that already
 * disagree are probed (7 forward evaluations each), so a passing check costs nothing extra.
 */
final class KinkDetector {

    /** A leftover this large, relative to the slopes themselves, is a kink and not curvature. */
    private static final double RELATIVE_JUMP = 1e-3;

    enum Probe { SMOOTH, KINK, WRONG_AT_KINK }

    private KinkDetector() {}

    /**
     * @param flatRows the output entries whose slopes to test (those that disagreed)
     * @param analytic the backward's value at each of those entries, aligned with {@code flatRows}
     */
    static Probe probe(NumericalDerivative numerical, String input, int index, String output, int[] flatRows,
                       double[] analytic, double outputScale) {
        double delta = numerical.delta();
        double[] offsets = {-2, -1, -0.5, 0, 0.5, 1, 2};
        double[][] y = new double[offsets.length][];
        for (int k = 0; k < offsets.length; k++) {
            Map<String, INDArray> at = numerical.atElement(input, index, offsets[k] * delta);
            y[k] = Flat.values(at.get(output));
        }
        double noise = JacobianComparison.noiseFloor(outputScale, delta / 2);
        boolean kink = false;
        for (int r = 0; r < flatRows.length; r++) {
            int j = flatRows[r];
            Slopes coarse = new Slopes(y[1][j], y[0][j], y[3][j], y[5][j], y[6][j], delta); // f(−δ), f(−2δ), ...
            Slopes fine = new Slopes(y[2][j], y[1][j], y[3][j], y[4][j], y[5][j], delta / 2);
            double threshold = Math.max(RELATIVE_JUMP * Math.max(coarse.largest(), fine.largest()), noise);
            boolean here = Math.abs(coarse.leftover()) > threshold && Math.abs(fine.leftover()) > threshold
                    && Math.abs(fine.leftover()) > Math.abs(coarse.leftover()) / 4; // curvature would shrink 8-fold
            if (here && !fine.brackets(analytic[r], threshold)) {
                return Probe.WRONG_AT_KINK;
            }
            kink |= here;
        }
        return kink ? Probe.KINK : Probe.SMOOTH;
    }

    /** One-sided slopes over h and 2h around x, from f(x−h), f(x−2h), f(x), f(x+h), f(x+2h). */
    private record Slopes(double sPlus, double sMinus, double wPlus, double wMinus) {

        Slopes(double minusH, double minus2H, double at, double plusH, double plus2H, double h) {
            this((plusH - at) / h, (at - minusH) / h, (plus2H - at) / (2 * h), (at - minus2H) / (2 * h));
        }

        double leftover() {
            return (wPlus - wMinus) - 2 * (sPlus - sMinus);
        }

        double largest() {
            return Math.max(Math.max(Math.abs(sPlus), Math.abs(sMinus)), Math.max(Math.abs(wPlus), Math.abs(wMinus)));
        }

        /** Whether a lies between the one-sided slopes (a subgradient), with {@code slack} either side. */
        boolean brackets(double a, double slack) {
            return a >= Math.min(sPlus, sMinus) - slack && a <= Math.max(sPlus, sMinus) + slack;
        }
    }
}
