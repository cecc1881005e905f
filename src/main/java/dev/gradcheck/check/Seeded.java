package dev.gradcheck.check;

import dev.gradcheck.spec.InputValues;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Everything random the checker draws besides input values: directions for fast mode and Hessian-vector
 * products, cotangents, samples of elements. Each draw has its own stream derived from the spec's seed and a
 * label, so a spec gives the same draws on every machine and one draw never shifts another.
 */
final class Seeded {

    private Seeded() {}

    static SplittableRandom stream(long seed, String label) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ label.hashCode() * 0xC2B2AE3D27D4EB4FL);
    }

    /** A float64 vector of the given shape, uniform on the unit sphere (normalised Gaussian). */
    static INDArray unit(long seed, String label, long[] shape) {
        SplittableRandom rnd = stream(seed, label);
        double[] v = new double[Math.toIntExact(Flat.size(shape))];
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = gaussian(rnd);
            norm += v[i] * v[i];
        }
        norm = Math.sqrt(norm);
        for (int i = 0; i < v.length; i++) {
            v[i] = norm == 0 ? 0 : v[i] / norm;
        }
        return Nd4j.createFromArray(v).reshape('c', shape).castTo(DataType.DOUBLE);
    }

    /** A float64 array of standard Gaussian values. */
    static INDArray gaussian(long seed, String label, long[] shape) {
        SplittableRandom rnd = stream(seed, label);
        double[] v = new double[Math.toIntExact(Flat.size(shape))];
        for (int i = 0; i < v.length; i++) {
            v[i] = gaussian(rnd);
        }
        return Nd4j.createFromArray(v).reshape('c', shape).castTo(DataType.DOUBLE);
    }

    /** {@code k} distinct indices below {@code n}, sorted; all of them (null) when k ≥ n. */
    static int[] sample(long seed, String label, int n, int k) {
        if (k >= n) {
            return null;
        }
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        SplittableRandom rnd = stream(seed, label);
        for (int i = 0; i < k; i++) { // a partial Fisher-Yates shuffle
            int j = i + rnd.nextInt(n - i);
            int t = all[i];
            all[i] = all[j];
            all[j] = t;
        }
        int[] chosen = Arrays.copyOf(all, k);
        Arrays.sort(chosen);
        return chosen;
    }

    /** The same Gaussian draw as input values use, so there is one Box-Muller in the code. */
    static double gaussian(SplittableRandom rnd) {
        return InputValues.gaussian(rnd);
    }
}
