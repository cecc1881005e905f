package dev.gradcheck.spec;

import dev.gradcheck.result.Stencil;

/**
 * A spec's finer checking settings, beside {@link OpSpec#mode()} and {@link OpSpec#order()}.
 *
 * @param stencil     how the numerical derivative is taken
 * @param maxElements check at most this many elements per input (a seeded sample); null checks all
 * @param nondetTol   the largest difference allowed between two runs of the same backward
 * @param resample    on a nondifferentiable point, draw new inputs until the point is smooth
 * @param sampleSeed  the seed of the sample {@code maxElements} takes and of fast mode's directions; null uses the
 *                    spec's {@code seed}, so a new sample need not redraw the inputs
 * @param mask        Jacobian entries left out of judging
 * @param compress    full mode computes one side of each Jacobian in full and the other in compressed groups
 *                    (docs/checking.md); false computes both sides line by line
 * @param threads     how many threads evaluate a check's lines, or null for the default (not a spec key: a
 *                    machine's setting, given by {@code --threads} or the library; results do not depend on it)
 */
public record CheckOptions(Stencil stencil, Integer maxElements, double nondetTol, boolean resample,
                           Long sampleSeed, JacobianMask mask, boolean compress, Integer threads) {

    public static final CheckOptions DEFAULT = new CheckOptions(Stencil.CENTRAL, null, 0.0, false);

    /** The most threads one check may use. */
    public static final int MAX_THREADS = 64;

    public CheckOptions {
        mask = mask == null ? JacobianMask.NONE : mask;
    }

    /** Without a sample seed of its own or a mask; compressed, on the default threads. */
    public CheckOptions(Stencil stencil, Integer maxElements, double nondetTol, boolean resample) {
        this(stencil, maxElements, nondetTol, resample, null, JacobianMask.NONE, true, null);
    }

    /**
     * Threads per check when none are asked for, where {@code sharers} checks run side by side (--jobs): this
     * machine's processors shared among them, at most 8 (a check's arrays are small, so more threads mostly contend
     * for memory bandwidth). A check starts helper threads only once its evaluations have run for a while.
     */
    public static int defaultThreads(int sharers) {
        return Math.max(1, Math.min(8, Processors.COUNT) / Math.max(1, sharers));
    }

    /**
     * The processor count, asked once: in a container the JVM answers it by reading the cgroup files each time
     * (5% of a warm 1 ms check, which asks per check).
     */
    private static final class Processors {
        static final int COUNT = Runtime.getRuntime().availableProcessors();
    }

    // The bounds every way in applies (a spec, the command line, the library API), each with its own message.

    public static boolean validOrder(long order) {
        return order == 1 || order == 2;
    }

    public static boolean validMaxElements(long n) {
        return n >= 1 && n <= Integer.MAX_VALUE;
    }

    public static boolean validNondetTol(double tol) {
        return Double.isFinite(tol) && tol >= 0;
    }

    public static boolean validThreads(long n) {
        return n >= 1 && n <= MAX_THREADS;
    }

    /**
     * A spec's finite-difference step: above 0 and at most {@link #MAX_DELTA}. A larger one puts the stencil's points
     * (x ± 2h, and 100h for the most precise step) beyond any float64 (1e308 probed at -Infinity and failed as the
     * operator's error); below {@link #MIN_DELTA}, x + h rounds back to x for any x of magnitude one.
     */
    public static final double MIN_DELTA = 1e-15;
    /** See {@link #MIN_DELTA}. */
    public static final double MAX_DELTA = 1e3;

    public static boolean validDelta(double delta) {
        return delta >= MIN_DELTA && delta <= MAX_DELTA;
    }

    /** One check's time limit, in seconds: a millisecond to a million seconds (11.6 days). */
    public static final double MIN_TIMEOUT = 1e-3;
    /** See {@link #MIN_TIMEOUT}. */
    public static final double MAX_TIMEOUT = 1e6;

    public static boolean validTimeout(double seconds) {
        return seconds >= MIN_TIMEOUT && seconds <= MAX_TIMEOUT;
    }

    /** ND4J's arrays have at most 32 dimensions: a rank-33 input failed in the check, rank 40 aborted the JVM. */
    public static final int MAX_RANK = 32;

    public CheckOptions withStencil(Stencil s) {
        return new CheckOptions(s, maxElements, nondetTol, resample, sampleSeed, mask, compress, threads);
    }

    public CheckOptions withMaxElements(Integer n) {
        return new CheckOptions(stencil, n, nondetTol, resample, sampleSeed, mask, compress, threads);
    }

    public CheckOptions withNondetTol(double tol) {
        return new CheckOptions(stencil, maxElements, tol, resample, sampleSeed, mask, compress, threads);
    }

    public CheckOptions withSampleSeed(Long seed) {
        return new CheckOptions(stencil, maxElements, nondetTol, resample, seed, mask, compress, threads);
    }

    public CheckOptions withMask(JacobianMask m) {
        return new CheckOptions(stencil, maxElements, nondetTol, resample, sampleSeed, m, compress, threads);
    }

    public CheckOptions withCompress(boolean c) {
        return new CheckOptions(stencil, maxElements, nondetTol, resample, sampleSeed, mask, c, threads);
    }

    public CheckOptions withThreads(Integer n) {
        return new CheckOptions(stencil, maxElements, nondetTol, resample, sampleSeed, mask, compress, n);
    }

    CheckOptions with(Overrides o) {
        return new CheckOptions(
                o.stencil() != null ? o.stencil() : stencil,
                o.maxElements() != null ? o.maxElements() : maxElements,
                o.nondetTol() != null ? o.nondetTol() : nondetTol,
                o.resample() != null ? o.resample() : resample,
                sampleSeed, mask,
                o.compress() != null ? o.compress() : compress,
                o.threads() != null ? o.threads() : threads);
    }
}
