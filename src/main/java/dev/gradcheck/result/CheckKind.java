package dev.gradcheck.result;

import java.util.Arrays;
import java.util.Optional;

/** What a result row compared. */
public enum CheckKind {
    /** The Jacobian block element by element (or a seeded sample of it). */
    JACOBIAN,
    /** The projection vᵀJu with random unit vectors u, v. */
    FAST,
    /** The operator's own forward-mode derivative J·u against the numerical one (plugins with a JVP). */
    JVP,
    /** A Hessian-vector product H·w against finite differences of the gradient along w (scalar outputs). */
    HVP,
    /** A zero output gradient must give zero input gradients. */
    ZERO_GRAD,
    /** The forward pass must leave its inputs as they were. */
    INPUT_MUTATION,
    /** Outputs must keep their shape and dtype when inputs are perturbed. */
    OUTPUT_STABILITY,
    /** The backward run twice on the same values must agree within {@code nondet_tol}. */
    DETERMINISM,
    /**
     * The backward must be linear in its output gradient: VJP(u + b·v) = VJP(u) + b·VJP(v) for a one-hot u and a
     * dense v, and VJP(s·v) = s·VJP(v) for s = −1, 2¹⁰, 2⁻¹⁰.
     */
    LINEARITY;

    public String reportName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** The kind a report names {@code text} ({@link #reportName()}'s counterpart, for reading reports back). */
    public static Optional<CheckKind> fromReportName(String text) {
        return Arrays.stream(values()).filter(v -> v.reportName().equals(text)).findFirst();
    }

    public boolean isSanityCheck() {
        return this == ZERO_GRAD || this == INPUT_MUTATION || this == OUTPUT_STABILITY || this == DETERMINISM
                || this == LINEARITY;
    }
}
