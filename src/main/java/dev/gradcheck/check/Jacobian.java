package dev.gradcheck.check;

/**
 * A dense Jacobian block d output / d input: {@code values[j][i]} is d out_j / d in_i, both indices flat in
 * row-major order.
 */
public record Jacobian(long[] outputShape, long[] inputShape, double[][] values) {

    public int rows() {
        return values.length;
    }

    public int cols() {
        return values.length == 0 ? 0 : values[0].length;
    }
}
