package dev.gradcheck.spec;

import java.util.SplittableRandom;

/**
 * An input's values, generated in plain Java so that the same spec and seed give the same numbers on every
 * machine and ND4J version. Each input draws from its own stream, derived from the seed and its name, so adding
 * an input does not change the others. In spec/ because these are the values a spec's init describes: the
 * checker draws them, and op/ builds a graph on them to validate it.
 */
public final class InputValues {

    private InputValues() {}

    public static double[] generate(InputSpec input, long seed) {
        int n = Math.toIntExact(input.length());
        double[] v = new double[n];
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ input.name().hashCode());
        Init init = input.init();
        if (init instanceof Init.Uniform u) {
            for (int i = 0; i < n; i++) {
                v[i] = u.low() + (u.high() - u.low()) * rnd.nextDouble();
            }
        } else if (init instanceof Init.Normal g) {
            for (int i = 0; i < n; i++) {
                v[i] = g.mean() + g.std() * gaussian(rnd);
            }
        } else if (init instanceof Init.Values values) {
            System.arraycopy(values.flat(), 0, v, 0, n);
        } else if (init instanceof Init.Constant c) {
            java.util.Arrays.fill(v, c.value());
        } else if (init instanceof Init.Range r) {
            for (int i = 0; i < n; i++) {
                v[i] = r.start() + i * r.step();
            }
        }
        return v;
    }

    /** A standard Gaussian by Box-Muller: SplittableRandom has no nextGaussian on Java 17. */
    public static double gaussian(SplittableRandom rnd) {
        double u1 = 1.0 - rnd.nextDouble();
        double u2 = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
