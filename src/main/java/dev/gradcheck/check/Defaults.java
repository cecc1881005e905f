package dev.gradcheck.check;

import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.Tolerance;

/**
 * Per-dtype defaults for the finite-difference step and the tolerance, used when a spec gives none. The
 * numerical reference is always float64, so the tolerance budgets the analytic side's own rounding: about
 * 1e-16 relative for float64, 1e-7 for float32, 1e-3 for float16, 1e-2 for bfloat16, times a margin for the
 * several operations a backward chains.
 */
public final class Defaults {

    private Defaults() {}

    public static double delta(DType dtype) {
        return switch (dtype) {
            case FLOAT64 -> 1e-6;
            case FLOAT32 -> 1e-3;
            default -> 1e-2;
        };
    }

    public static Tolerance tolerance(DType dtype) {
        return new Tolerance.MaxRelative(switch (dtype) {
            case FLOAT64 -> 1e-6;
            case FLOAT32 -> 1e-2;
            case FLOAT16 -> 5e-2;
            default -> 1e-1;
        });
    }
}
