/**
 * Internal (no compatibility promise): the plugin operators of a run: loaded through {@code spi.Operator}
 * ({@code PluginLoader}), their metadata read once ({@code PluginOperator}, {@code PluginSet}), and a spec's op
 * resolved and checked against them and the op catalog without running anything ({@code OpResolver}). The front
 * end's: it loads plugins for their names and calls only the Operator methods that take no ND4J type (their forward
 * and backward run where ND4J is: {@code op.OperatorFunction}); the architecture test holds both.
 */
package dev.gradcheck.op.plugin;
