package dev.gradcheck.result;

/**
 * Which compared Jacobian blocks a check hands back whole ({@link BlockJacobians}), beside their figures. A run
 * setting, not a spec key: matrices cost memory and, from a worker JVM, transport; only a run that shows or
 * writes them asks ({@code check --dump} asks for failing blocks, a display of every block for all).
 */
public enum JacobianCapture {
    /** None: the figures, the worst entries and the mismatch region only. */
    NONE,
    /** The blocks whose verdict fails the check (mismatch, zero gradient, non-finite). */
    FAILING,
    /** Every compared block (in fast mode: those rechecked in full). */
    ALL;

    /**
     * The blocks this or {@code other} asks for: the wider of the two (each constant holds the blocks of those
     * declared before it).
     */
    public JacobianCapture union(JacobianCapture other) {
        return compareTo(other) >= 0 ? this : other;
    }

    /** Whether a block with this verdict is captured. */
    public boolean captures(Verdict verdict) {
        return this == ALL || this == FAILING && !verdict.passed();
    }
}
