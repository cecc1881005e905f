/**
 * Public API: checking gradients from Java code, without specs or the CLI. {@code GradCheck} builds one check over
 * arrays the caller gives and runs it on the CPU engine in this JVM (the same checker as {@code gradcheck check},
 * through the same in-process engine); {@code GradAssertions} turns a result into a test failure. Its methods take
 * and return only types of the public surface ({@code api}, {@code spi}, {@code result}), the JDK and ND4J's
 * {@code INDArray}; an architecture test holds that.
 */
package dev.gradcheck.api;
