/**
 * Public API: the plugin contract. {@code Operator} is what a custom operator implements to be checked, from specs
 * ({@code --plugin}, found by {@code java.util.ServiceLoader} through
 * {@code META-INF/services/dev.gradcheck.spi.Operator}) or from Java ({@code GradCheck.of}). It depends on nothing
 * else of gradcheck, only on ND4J's {@code INDArray}.
 */
package dev.gradcheck.spi;
