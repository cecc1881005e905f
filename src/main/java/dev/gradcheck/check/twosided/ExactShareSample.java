package dev.gradcheck.check.twosided;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How many of a compact block's analytic values need a double, estimated from the row pass's first groups, taken as
 * a seeded random sample of all of them ({@link #order}): where the estimate's lower bound already puts more of them
 * exact than the block has room for ({@link CompactAnalytic#tooExact}), the run stops after the sample, in seconds,
 * rather than when the pass has found that many (dot_product_attention q/k/v [2,4,64,128]: after 2 min 42 s). The
 * values are the pass's own (no evaluation more), and a run the estimate does not stop goes on as it would have.
 *
 * <p>The bound: the ratio estimate over the sampled groups, less {@value #STANDARD_ERRORS} standard errors of it
 * from the groups' spread (a group is one backward pass, its entries far from independent, so the group is the
 * unit). A block whose exact values crowd into a few groups has a wide spread, and is let run.
 */
final class ExactShareSample {
    /** Groups sampled at most: a few seconds of a pass of thousands of groups. */
    static final int MAX_GROUPS = 256;
    /** Fewer groups than this in the sample and it is not taken: too few units for a spread. */
    static final int MIN_GROUPS = 32;
    /** The sample is at most this share of the groups: below it, the pass is short anyway. */
    static final int SHARE_OF_PASS = 8;
    /** How far below the estimate its bound lies, in standard errors. */
    static final double STANDARD_ERRORS = 5;
    private static final long SEED = 0x5eed_5a3b1eL;

    /** Per input: each sampled group's entries and how many of them were held exactly. */
    private final long[][] entries;
    private final long[][] exact;
    private final int size;
    private final int groups;

    private ExactShareSample(int inputs, int size, int groups) {
        this.entries = new long[inputs][size];
        this.exact = new long[inputs][size];
        this.size = size;
        this.groups = groups;
    }

    /** A sample for a pass of this many groups, or null where it would be too small a share or too few. */
    static ExactShareSample of(int inputs, int groups) {
        int size = Math.min(MAX_GROUPS, groups / SHARE_OF_PASS);
        return size < MIN_GROUPS ? null : new ExactShareSample(inputs, size, groups);
    }

    /** How many groups it samples: the pass's first, in {@link #order}. */
    int size() {
        return size;
    }

    /**
     * The order the pass takes its groups in: the sample, drawn at random with a fixed seed and in ascending order,
     * then the others in ascending order.
     */
    int[] order() {
        int[] all = new int[groups];
        Arrays.setAll(all, i -> i);
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < size; i++) { // the first `size` of a partial Fisher-Yates shuffle
            int j = i + random.nextInt(groups - i);
            int t = all[i];
            all[i] = all[j];
            all[j] = t;
        }
        Arrays.sort(all, 0, size);
        Arrays.sort(all, size, groups);
        return all;
    }

    /** The {@code k}th sampled group's entries of input {@code input}, and how many of them were held exactly. */
    void add(int k, int input, long groupEntries, long groupExact) {
        entries[input][k] = groupEntries;
        exact[input][k] = groupExact;
    }

    /** The estimate for one input: the share of its values that need a double, and the bound below it. */
    record Share(double estimate, double atLeast) {}

    Share share(int input) {
        long n = 0;
        long x = 0;
        for (int k = 0; k < size; k++) {
            n += entries[input][k];
            x += exact[input][k];
        }
        if (n == 0) {
            return new Share(0, 0);
        }
        double p = (double) x / n;
        double spread = 0;
        for (int k = 0; k < size; k++) {
            double r = exact[input][k] - p * entries[input][k];
            spread += r * r;
        }
        double mean = (double) n / size;
        double finite = 1 - (double) size / groups;
        double error = Math.sqrt(finite * spread / (size - 1) / size) / mean;
        return new Share(p, p - STANDARD_ERRORS * error);
    }

    /**
     * Why the run stops where the bound for input {@code input}, over its {@code total} entries, puts more values
     * exact than the {@code room} it has; else null.
     */
    String tooExact(int input, String name, long total, int room) {
        Share s = share(input);
        if (s.atLeast() * total <= room) {
            return null;
        }
        return String.format(Locale.ROOT, "about %.1f%% of %s's analytic values need more than a float (at least"
                + " %.1f%%, from %,d of its %,d row groups), more than the %.1f%% (%,d) it has room for exactly",
                100 * s.estimate(), name, 100 * s.atLeast(), size, groups, 100.0 * room / total, room);
    }
}
