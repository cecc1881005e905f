/**
 * Internal (no compatibility promise): how a spec becomes a {@code Differentiable} (ND4J ops, graphs, plugin
 * operators) and the capabilities some functions offer the checker ({@code ForwardMode}, {@code ClippedGraph},
 * {@code NodeCapture}). The only package that constructs ND4J ops.
 */
package dev.gradcheck.op;
