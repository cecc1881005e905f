package dev.gradcheck.check.numeric;

import dev.gradcheck.spec.InputValues;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Everything random the checker draws besides input values: directions for fast mode and Hessian-vector
 * products, cotangents, samples of elements. Each draw has its own stream derived from the spec's seed and a
 * label, so a spec gives the same draws on every machine and one draw never shifts another.
 */
public final class Seeded {

    private Seeded() {}

    public static SplittableRandom stream(long seed, String label) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ label.hashCode() * 0xC2B2AE3D27D4EB4FL);
    }

    /** A float64 vector of the given shape, uniform on the unit sphere (normalised Gaussian). */
    public static INDArray unit(long seed, String label, long[] shape) {
        return Flat.array(DRAWN.get(new Draw(true, seed, label, Math.toIntExact(Flat.size(shape)))), shape);
    }

    /** A float64 array of standard Gaussian values. */
    public static INDArray gaussian(long seed, String label, long[] shape) {
        return Flat.array(DRAWN.get(new Draw(false, seed, label, Math.toIntExact(Flat.size(shape)))), shape);
    }

    /** One draw of Gaussian values: a function of these four alone. */
    private record Draw(boolean normalised, long seed, String label, int length) {

        double[] values() {
            SplittableRandom rnd = stream(seed, label);
            double[] v = new double[length];
            double norm = 0;
            for (int i = 0; i < v.length; i++) {
                v[i] = gaussian(rnd);
                norm += v[i] * v[i];
            }
            if (normalised) {
                norm = Math.sqrt(norm);
                for (int i = 0; i < v.length; i++) {
                    v[i] = norm == 0 ? 0 : v[i] / norm;
                }
            }
            return v;
        }
    }

    /**
     * The last draws, for the next check of the same spec (a shell, an edit loop, a benchmark): a Gaussian value
     * costs a logarithm, a square root and a cosine, and a fast check of 4000 elements draws 12 000 of them (u, v
     * and the determinism row's cotangent), a quarter of its time. The values are a function of the draw, so a
     * kept draw is the one that would be made; callers get arrays of their own ({@link Flat#array} copies).
     */
    private static final DrawCache DRAWN = new DrawCache(NumericTuning.DRAW_CACHE_BYTES);

    /** Draws kept up to a number of values in all, least recently used dropped first. */
    private static final class DrawCache {
        private final long maxValues;
        private final java.util.LinkedHashMap<Draw, double[]> kept = new java.util.LinkedHashMap<>(16, 0.75f, true);
        private long values;

        DrawCache(long maxBytes) {
            this.maxValues = maxBytes / Double.BYTES;
        }

        double[] get(Draw draw) {
            synchronized (this) {
                double[] v = kept.get(draw);
                if (v != null) {
                    return v;
                }
            }
            double[] v = draw.values();
            if (v.length > maxValues / 4) {
                return v; // too large to keep among others
            }
            synchronized (this) {
                if (kept.put(draw, v) == null) {
                    values += v.length;
                }
                for (var it = kept.values().iterator(); values > maxValues && it.hasNext(); ) {
                    values -= it.next().length;
                    it.remove();
                }
            }
            return v;
        }
    }

    /** {@code k} distinct indices below {@code n}, sorted; all of them (null) when k ≥ n. */
    public static int[] sample(long seed, String label, int n, int k) {
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
    public static double gaussian(SplittableRandom rnd) {
        return InputValues.gaussian(rnd);
    }
}
