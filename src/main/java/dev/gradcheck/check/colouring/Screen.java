package dev.gradcheck.check.colouring;

import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.spec.Tolerance;
import java.util.function.DoubleSupplier;

/**
 * The one per-entry screen of the compressed paths: an entry's analytic and numerical value, judged by its block's
 * rule with the numerical value's own error bound, pass when they score at most {@link ColouringTuning#SCREEN} (a
 * quarter of what the tolerance allows); a NaN score does not pass. Every site that screens an entry, or a value
 * that should be zero, asks this type: the one-sided path's groups ({@code CompressedJacobians}), and the two-sided
 * run's passes, rests, values outside the pattern and located lines.
 */
public final class Screen {
    private final Tolerance rule;
    /** The rule's score of a value 1 against 0: a value v against 0 scores |v| times this. */
    private final double zeroRate;

    /** The screen of a block judged by {@code rule} (its output's rule at the block's scale). */
    public Screen(Tolerance rule) {
        this.rule = rule;
        this.zeroRate = rule.score(1, 0);
    }

    public Tolerance rule() {
        return rule;
    }

    /** Whether a score passes the screen (NaN does not). */
    public static boolean passes(double score) {
        return score <= ColouringTuning.SCREEN;
    }

    /** The one rule's score of analytic {@code a} against numerical {@code n}, whose error bound is {@code bound}. */
    public double score(double a, double n, double bound) {
        return JacobianComparison.score(rule, a, n, bound);
    }

    /** Whether analytic {@code a} and numerical {@code n}, with n's error bound, pass the screen. */
    public boolean passes(double a, double n, double bound) {
        return passes(score(a, n, bound));
    }

    /**
     * Whether a value that should be zero passes as zero: the rule alone first (linear in the value against zero, so
     * one multiplication), the entry's error bound ({@code withBound}, the score with it) only where the rule alone
     * does not pass it.
     */
    public boolean passesAsZero(double value, DoubleSupplier withBound) {
        return passesAsZero(value) || passes(withBound.getAsDouble());
    }

    /**
     * Whether a value that should be zero passes as zero by the rule alone, without its error bound: the cheap half
     * of {@link #passesAsZero(double, DoubleSupplier)}, for a loop over millions of entries that must not allocate a
     * supplier per entry (what is left, {@code passes(score(...))}, is the caller's).
     */
    public boolean passesAsZero(double value) {
        return passes(Math.abs(value) * zeroRate);
    }

    /** Whether the values agree under the tolerance itself (a score of at most 1), as the dense check judges. */
    public boolean agrees(double a, double n, double bound) {
        return score(a, n, bound) <= 1;
    }
}
