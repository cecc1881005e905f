package dev.gradcheck.check.twosided;

import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.List;

/**
 * The entries of a compactly held block ({@link CompactAnalytic}) that the screen let through on a rounded analytic
 * value, put into the block's tally only where that cannot change what it reports. Such an entry passes wherever its
 * exact value lies (the screen passed it at the end of its interval farthest from the numerical value), so it is
 * never a mismatch, nor within the numerical error alone; what its exact value could change are the block's three
 * maxima (|a − n|, the relative error, the score with its worst entry). Every figure is monotone in |a − n| for a
 * given n, so over the interval each lies between its values at the nearest and the farthest end. An entry whose
 * farthest values are each below what some entry certainly reaches (an exact entry's value, a rounded one's nearest)
 * is below the block's maxima, and changes no figure the tally reports ({@link #takeBelow}). Any other stays a candidate until {@link #finish}; those left then take their exact values
 * ({@link RowsAgain}: their rows' backward passes again).
 */
final class RoundedMaxima {

    /** A rounded entry whose exact value might reach a maximum, with its figures at the interval's farthest end. */
    record Candidate(int row, int col, double rounded, double n, double error, double abs, double rel,
                             double score) {}

    private static final int FIRST_PRUNE = 1 << 12;

    private final Tolerance rule;
    private final JacobianComparison.Tally tally;
    private final List<Candidate> candidates = new ArrayList<>();
    private int pruneAt = FIRST_PRUNE;
    private double reachedAbs;
    private double reachedRel;
    private double reachedScore;
    /** Whether an entry below every maximum went into the tally ({@link #takeBelow}). */
    private boolean tookBelow;

    RoundedMaxima(Tolerance rule, JacobianComparison.Tally tally) {
        this.rule = rule;
        this.tally = tally;
    }

    /** An exact entry the tally took: what it reaches, each maximum reaches too. */
    void exact(double a, double n, double error) {
        reach(a, n, error);
    }

    /**
     * An entry the screen let through, by the rule alone, at the end of its interval farthest from n (so its score
     * is the rule's there, and below 1 anywhere in the interval): its exact analytic value lies within
     * {@code rounding} of {@code rounded}.
     */
    void rounded(int row, int col, double rounded, double rounding, double n, double error) {
        double far = rounded >= n ? rounded + rounding : rounded - rounding;
        double abs = Math.abs(far - n);
        double rel = Tolerance.relativeError(far, n);
        double score = JacobianComparison.score(rule, far, n, error);
        if (!below(abs, rel, score)) {
            double low = rounded - rounding;
            double high = rounded + rounding;
            reach(low > n ? low : Math.min(high, n), n, error); // the interval's value nearest n
        }
        if (below(abs, rel, score)) {
            takeBelow(row, col, rounded, n, error);
            return;
        }
        candidates.add(new Candidate(row, col, rounded, n, error, abs, rel, score));
        if (candidates.size() >= pruneAt) {
            prune();
            pruneAt = Math.max(pruneAt, 2 * candidates.size());
        }
    }

    /**
     * An entry below every maximum. Beside them a tally reads only its largest |n| and whether every analytic value is
     * 0, and reports the first only where the second holds; the rounded value is 0 only where the exact one is (an
     * exact 0 is never held rounded), so one such entry in the tally says what all of them would: not all 0.
     */
    private void takeBelow(int row, int col, double rounded, double n, double error) {
        if (!tookBelow) {
            tally.add(row, col, rounded, n, error);
            tookBelow = true;
        }
    }

    /**
     * The candidates now below every maximum into the tally; the others, whose exact values are needed, returned
     * ({@link #exactly}).
     */
    List<Candidate> finish() {
        prune();
        return List.copyOf(candidates);
    }

    /** A candidate into the tally with its exact analytic value, as the tally takes every other entry. */
    void exactly(Candidate c, double a) {
        tally.add(c.row(), c.col(), a, c.n(), c.error());
    }

    private void prune() {
        candidates.removeIf(c -> {
            if (!below(c)) {
                return false;
            }
            takeBelow(c.row(), c.col(), c.rounded(), c.n(), c.error());
            return true;
        });
    }

    private boolean below(Candidate c) {
        return below(c.abs(), c.rel(), c.score());
    }

    private boolean below(double abs, double rel, double score) {
        return abs < reachedAbs && rel < reachedRel && score < reachedScore;
    }

    private void reach(double a, double n, double error) {
        double abs = Math.abs(a - n);
        double rel = Tolerance.relativeError(a, n);
        double score = JacobianComparison.score(rule, a, n, error);
        if (Double.isFinite(abs) && Double.isFinite(rel) && Double.isFinite(score)) {
            reachedAbs = Math.max(reachedAbs, abs);
            reachedRel = Math.max(reachedRel, rel);
            reachedScore = Math.max(reachedScore, score);
        }
    }
}
