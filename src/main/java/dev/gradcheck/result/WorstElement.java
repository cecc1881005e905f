package dev.gradcheck.result;

/**
 * The Jacobian entry d output[outputIndex] / d input[inputIndex] that is furthest outside the tolerance
 * (or closest to it, when everything passes).
 */
public record WorstElement(long[] outputIndex, long[] inputIndex, double analytic, double numerical) {}
