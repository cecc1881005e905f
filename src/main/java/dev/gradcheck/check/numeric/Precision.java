package dev.gradcheck.check.numeric;

import dev.gradcheck.spec.DType;

/**
 * The one place a dtype's precision is decided: its mantissa bits, and its unit roundoff 2^−bits (2^-52, 2^-23,
 * 2^-10, 2^-7). Weights on a dtype's grid, tolerances, noise floors and rounding bounds all ask here. It takes the
 * spec's dtypes, not ND4J's, so that the front end can ask too (ND4J's types go through {@code Nd4jTypes.toSpec}).
 */
public final class Precision {

    private Precision() {}

    /** The mantissa bits of a floating dtype; 0 for any other (no grid finer than the integers). */
    public static int mantissaBits(DType type) {
        return switch (type) {
            case FLOAT64 -> 52;
            case FLOAT32 -> 23;
            case FLOAT16 -> 10;
            case BFLOAT16 -> 7;
            default -> 0;
        };
    }

    /** The unit roundoff 2^−bits of a floating dtype; 0 for any other. */
    public static double epsilon(DType type) {
        int bits = mantissaBits(type);
        return bits == 0 ? 0 : Math.scalb(1.0, -bits);
    }

    /** The unit roundoff of float64, in which every numerical reference is evaluated. */
    public static final double FLOAT64 = epsilon(DType.FLOAT64);
}
