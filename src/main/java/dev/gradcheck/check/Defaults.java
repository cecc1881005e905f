package dev.gradcheck.check;

import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.Tolerance;

/**
 * Defaults for the finite-difference step and the tolerance, used when a spec gives none. The numerical reference
 * is always float64, so the tolerance budgets the analytic side's own rounding: about 1e-16 relative for float64,
 * 1e-7 for float32, 1e-3 for float16, 1e-2 for bfloat16, times a margin for the several operations a backward
 * chains. The step belongs to the dtype the differences are taken in, which is float64 whatever the op under
 * test runs in: tools that difference in float32 need δ ≈ 1e-3 there (PyTorch's choice) and pay δ²·f‴ for it.
 */
public final class Defaults {

    private Defaults() {}

    /**
     * The step for finite differences evaluated in {@code evaluatedIn}: about ∛ε of that dtype, where the
     * truncation error δ²·f‴ and the rounding error ε·|f|/δ of central differences balance.
     */
    public static double delta(DType evaluatedIn) {
        return switch (evaluatedIn) {
            case FLOAT64 -> 1e-6;
            case FLOAT32 -> 1e-3;
            default -> 1e-2;
        };
    }

    /** The dtype every numerical reference is evaluated in. */
    public static final DType REFERENCE = DType.FLOAT64;

    /**
     * Measured with δ = 1e-6 on tanh, sigmoid, exp, sin, softplus, softmax, matmul and the suite's other float32
     * specs (see docs/checking.md): worst relative errors about 3e-6 in float32, 1e-2 in float16, 5e-3 in
     * bfloat16; each default leaves a margin of 5x or more over those.
     */
    public static Tolerance tolerance(DType dtype) {
        return new Tolerance.MaxRelative(switch (dtype) {
            case FLOAT64 -> 1e-6;
            case FLOAT32 -> 1e-3;
            case FLOAT16 -> 5e-2;
            default -> 1e-1;
        });
    }
}
