package dev.gradcheck.result;

/**
 * How much of a Jacobian block a sampled check ({@code max_elements}) compared: these many of the input's
 * elements (columns) against these many of the output's (rows).
 */
public record Sampling(int inputChecked, long inputTotal, int outputChecked, long outputTotal) {}
