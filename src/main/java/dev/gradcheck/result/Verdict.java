package dev.gradcheck.result;

import java.util.Arrays;
import java.util.Optional;

/** The verdict on one row of a check: a gradient comparison or a sanity check. */
public enum Verdict {
    /** Analytic and numerical agree under the tolerance (or the sanity check held). */
    PASS,
    /** They differ somewhere beyond the tolerance. */
    MISMATCH,
    /** The analytic gradient is entirely zero (or absent) while the numerical one is not: always a failure. */
    ZERO_GRADIENT,
    /**
     * Every disagreement sits at a point where the function has a kink (relu at 0, max with ties, a clip edge):
     * no derivative exists there, so the disagreement is no evidence against the backward. Not a failure.
     */
    NONDIFFERENTIABLE,
    /**
     * Every entry agrees within the tolerance except some that no finite difference resolves: beyond the tolerance
     * but within the numerical side's own error at its most precise step (a forward curving at the scale of the
     * step, rounding over a long sum). No evidence either way on those entries, so not a failure; the note counts
     * them and gives the largest error bound.
     */
    UNRESOLVABLE,
    /** Two runs of the same backward on the same values differ by more than {@code nondet_tol}. */
    NONDETERMINISTIC,
    /** The backward is not linear in its output gradient (a path of its own for some cotangents, a clip, |g|). */
    NONLINEAR_BACKWARD,
    /** A zero output gradient gave a non-zero input gradient. */
    NONZERO_FOR_ZERO_GRAD,
    /** The forward pass changed an input's values. */
    INPUT_MUTATED,
    /** An output changed shape or dtype when an input was perturbed by δ. */
    UNSTABLE_OUTPUT,
    /** A NaN or infinity in the forward output or in either gradient: never a pass, whatever the tolerance. */
    NON_FINITE;

    public String reportName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** The verdict a report names {@code text} ({@link #reportName()}'s counterpart, for reading reports back). */
    public static Optional<Verdict> fromReportName(String text) {
        return Arrays.stream(values()).filter(v -> v.reportName().equals(text)).findFirst();
    }

    /** Whether this verdict lets the check pass. */
    public boolean passed() {
        return this == PASS || this == NONDIFFERENTIABLE || this == UNRESOLVABLE;
    }
}
