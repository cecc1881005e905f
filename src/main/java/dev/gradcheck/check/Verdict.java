package dev.gradcheck.check;

/** The verdict on one (output, input) gradient. */
public enum Verdict {
    /** Analytic and numerical agree under the tolerance. */
    PASS,
    /** They differ somewhere beyond the tolerance. */
    MISMATCH,
    /** The analytic gradient is entirely zero (or absent) while the numerical one is not: always a failure. */
    ZERO_GRADIENT,
    /** A NaN or infinity in the forward output or in either gradient: never a pass, whatever the tolerance. */
    NON_FINITE;

    public String reportName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    public boolean passed() {
        return this == PASS;
    }
}
