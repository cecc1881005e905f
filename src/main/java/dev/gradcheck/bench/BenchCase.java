package dev.gradcheck.bench;

import java.util.List;
import java.util.Optional;

/**
 * One benchmarked op: a spec (YAML, float64, inputs uniform in [-2, 2]) and the same op as a bare native call
 * (name, integer arguments), so the cost of an evaluation through gradcheck can be set beside the kernel alone.
 * The ids are what {@code bench/compare} asks for; it holds the same six cases written for PyTorch.
 */
record BenchCase(String id, String label, String yaml, String nativeOp, long[] intArgs) {

    /** The six cases of issue 12, side by side with PyTorch's gradcheck in bench/compare. */
    static final List<BenchCase> ALL = List.of(
        tanh(100),
        tanh(1000),
        tanh(4000),
        new BenchCase("matmul-30x40x50", "matmul 30x40 . 40x50", """
                op: matmul
                inputs:
                  a: {shape: [30, 40], init: {uniform: [-2, 2]}}
                  b: {shape: [40, 50], init: {uniform: [-2, 2]}}
                """, "matmul", new long[0]),
        new BenchCase("conv2d-2x3x8x8", "conv2d x 2x3x8x8, w 3x3x3x4", """
                op: conv2d
                attrs: {kH: 3, kW: 3, sH: 1, sW: 1, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 0, isNCHW: 0}
                inputs:
                  x: {shape: [2, 3, 8, 8], init: {uniform: [-2, 2]}}
                  w: {shape: [3, 3, 3, 4], init: {uniform: [-2, 2]}}
                """, "conv2d", new long[] {3, 3, 1, 1, 0, 0, 1, 1, 0, 0}),
        new BenchCase("softmax-16x32", "softmax 16x32, dim 1", """
                op: softmax
                attrs: {dimension: 1}
                inputs:
                  x: {shape: [16, 32], init: {uniform: [-2, 2]}}
                """, "softmax", new long[] {1}));

    /**
     * How a full check's cost grows with the input size N and the output size M: elementwise (N = M, diagonal),
     * softmax over rows of 32 (block-diagonal), square matmuls up to 64x64 (N = 2n², M = n², dense rows). The
     * matmuls' inputs are in [0.5, 1.5]: in [-2, 2] a 64x64 matmul's smallest Jacobian entries (~1e-3) sit within
     * the finite differences' rounding of float64's default tolerance, and the check fails (both ways).
     */
    static final List<BenchCase> SCALING = List.of(
        tanh(100), tanh(400), tanh(1000), tanh(2000), tanh(4000),
        softmax(8, 32), softmax(32, 32), softmax(128, 32),
        matmul(8), matmul(16), matmul(32), matmul(48), matmul(64));

    private static BenchCase softmax(int rows, int cols) {
        return new BenchCase("softmax-" + rows + "x" + cols, "softmax " + rows + "x" + cols + ", dim 1", """
                op: softmax
                attrs: {dimension: 1}
                inputs:
                  x: {shape: [%d, %d], init: {uniform: [-2, 2]}}
                """.formatted(rows, cols), "softmax", new long[] {1});
    }

    private static BenchCase matmul(int n) {
        return new BenchCase("matmul-" + n, "matmul " + n + "x" + n + " . " + n + "x" + n, """
                op: matmul
                inputs:
                  a: {shape: [%d, %d], init: {uniform: [0.5, 1.5]}}
                  b: {shape: [%d, %d], init: {uniform: [0.5, 1.5]}}
                """.formatted(n, n, n, n), "matmul", new long[0]);
    }

    private static BenchCase tanh(int n) {
        return new BenchCase("tanh-" + n, "tanh " + n, """
                op: tanh
                inputs:
                  x: {shape: [%d], init: {uniform: [-2, 2]}}
                """.formatted(n), "tanh", new long[0]);
    }

    /** A case of either list by its id (a case in both is the same spec). */
    static Optional<BenchCase> byId(String id) {
        return java.util.stream.Stream.concat(ALL.stream(), SCALING.stream()).filter(c -> c.id().equals(id))
                .findFirst();
    }

    /** {@code six} (the default): {@link #ALL}; {@code scaling}: {@link #SCALING}. */
    static List<BenchCase> set(String name) {
        return switch (name) {
            case "six" -> ALL;
            case "scaling" -> SCALING;
            default -> throw new IllegalArgumentException("no set of bench cases '" + name + "' (six, scaling)");
        };
    }

    /** The spec in a mode: {@code full} as written, {@code fast} with {@code mode: fast}. */
    String yaml(String mode) {
        return mode.equals("fast") ? "mode: fast\n" + yaml : yaml;
    }
}
