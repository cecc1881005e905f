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

    private static BenchCase tanh(int n) {
        return new BenchCase("tanh-" + n, "tanh " + n, """
                op: tanh
                inputs:
                  x: {shape: [%d], init: {uniform: [-2, 2]}}
                """.formatted(n), "tanh", new long[0]);
    }

    static Optional<BenchCase> byId(String id) {
        return ALL.stream().filter(c -> c.id().equals(id)).findFirst();
    }

    /** The spec in a mode: {@code full} as written, {@code fast} with {@code mode: fast}. */
    String yaml(String mode) {
        return mode.equals("fast") ? "mode: fast\n" + yaml : yaml;
    }
}
