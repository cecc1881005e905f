/**
 * Internal (no compatibility promise): how a spec becomes a {@code Differentiable} (ND4J ops, graphs, plugin
 * operators, through {@code OpBuilder}) and the capabilities some functions offer the checker ({@code ForwardMode},
 * {@code ClippedGraph}, {@code NodeCapture}), passed on by wrappers in one place ({@code ForwardingFunction}). The
 * only package that constructs ND4J ops: the side of op/ that loads ND4J, for check/, backend/nd4j, bench/ and api/.
 * What is known of an op without ND4J is below it, for the front end too: {@code op.catalog} (ND4J's ops as the
 * build recorded them) and {@code op.plugin} (plugin operators' metadata, and a spec checked against both).
 */
package dev.gradcheck.op;
