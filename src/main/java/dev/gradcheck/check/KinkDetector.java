package dev.gradcheck.check;

import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Tells a kink from a smooth point using the finite-difference values themselves, as Chainer's check_backward
 * does in spirit. Around a smooth point the one-sided slopes over δ and over 2δ differ by δ·f″ and 2δ·f″, so
 * {@code (S₊ − S₋) − 2(s₊ − s₋)} vanishes up to O(δ³); across a kink with a jump J in the derivative (relu at 0,
 * abs at 0, max with ties, a clip edge) it is about −J. Only columns that already disagree are probed, so a
 * passing check costs nothing extra; a probe costs 5 forward evaluations.
 */
final class KinkDetector {

    /** A jump in slope this large, relative to the slopes themselves, is a kink and not curvature. */
    private static final double RELATIVE_JUMP = 1e-3;

    private KinkDetector() {}

    /**
     * @param flatRows the output entries whose slopes to test (those that disagreed)
     * @return whether any of them has a kink within 2δ of the input's current value
     */
    static boolean isKink(NumericalDerivative numerical, String input, int index, String output, int[] flatRows,
                          double outputScale) {
        double delta = numerical.delta();
        double[][] y = new double[5][];
        for (int k = -2; k <= 2; k++) {
            Map<String, INDArray> at = numerical.atElement(input, index, k * delta);
            y[k + 2] = Flat.values(at.get(output));
        }
        double noise = JacobianComparison.noiseFloor(outputScale, delta);
        for (int j : flatRows) {
            double sPlus = (y[3][j] - y[2][j]) / delta;
            double sMinus = (y[2][j] - y[1][j]) / delta;
            double wPlus = (y[4][j] - y[2][j]) / (2 * delta);
            double wMinus = (y[2][j] - y[0][j]) / (2 * delta);
            double mismatch = Math.abs((wPlus - wMinus) - 2 * (sPlus - sMinus));
            double slopes = Math.max(Math.max(Math.abs(sPlus), Math.abs(sMinus)),
                    Math.max(Math.abs(wPlus), Math.abs(wMinus)));
            if (mismatch > Math.max(RELATIVE_JUMP * slopes, noise)) {
                return true;
            }
        }
        return false;
    }
}
