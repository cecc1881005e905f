package dev.gradcheck.check.twosided;

import dev.gradcheck.op.catalog.AffineInputs;
import java.util.HashMap;
import java.util.Map;

/**
 * Per input declared affine, how many groups of near entries its one-sided difference settled
 * ({@link dev.gradcheck.check.numeric.OneSidedStep}) and how many the data refuted (taken at finer steps as any
 * other input's): the row's note says what its verdict rests on.
 */
final class AffineTally {

    /** Per input: groups settled, groups refuted. */
    private final Map<String, int[]> counts = new HashMap<>();

    synchronized void count(String input, boolean settled) {
        counts.computeIfAbsent(input, k -> new int[2])[settled ? 0 : 1]++;
    }

    /** The note for input {@code in}'s row; null where no near group of it was taken along its declaration. */
    synchronized String note(AffineInputs declared, String in) {
        int[] n = counts.get(in);
        if (n == null) {
            return null;
        }
        String note = declared.op() + " is affine in " + in + ": near entries judged by a one-sided difference at"
                + " 100·h (" + n[0] + (n[0] == 1 ? " group" : " groups") + ")";
        return n[1] == 0 ? note : note + "; " + n[1] + (n[1] == 1 ? " group" : " groups")
                + " whose values at h and 100·h disagreed taken at finer steps";
    }
}
