package dev.gradcheck.bench;

/**
 * One benchmarked op: a spec (YAML) and the same op as a bare native call (name, integer arguments), so the
 * cost of an evaluation through gradcheck can be set beside the kernel alone.
 */
record BenchCase(String label, String yaml, String nativeOp, long[] intArgs) {

    static final BenchCase[] DEFAULT = {
        new BenchCase("tanh 8x8", """
                op: tanh
                inputs: {x: {shape: [8, 8]}}
                """, "tanh", new long[0]),
        new BenchCase("tanh 32x32", """
                op: tanh
                inputs: {x: {shape: [32, 32]}}
                """, "tanh", new long[0]),
        new BenchCase("softmax 8x16 dim 1", """
                op: softmax
                attrs: {dimension: 1}
                inputs: {x: {shape: [8, 16]}}
                """, "softmax", new long[] {1}),
        new BenchCase("matmul 16x16 @ 16x16", """
                op: matmul
                inputs: {a: {shape: [16, 16]}, b: {shape: [16, 16]}}
                """, "matmul", new long[0]),
        new BenchCase("conv2d 1x3x8x8, 3x3x3x4", """
                op: conv2d
                attrs: {kH: 3, kW: 3, sH: 1, sW: 1, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 0, isNCHW: 0}
                inputs: {x: {shape: [1, 3, 8, 8]}, w: {shape: [3, 3, 3, 4]}}
                """, "conv2d", new long[] {3, 3, 1, 1, 0, 0, 1, 1, 0, 0}),
    };
}
