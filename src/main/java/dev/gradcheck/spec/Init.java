package dev.gradcheck.spec;

/** How an input's values are made. Generation itself lives in check/ (pure Java, seeded). */
public sealed interface Init {
    /** Uniform on [low, high). */
    record Uniform(double low, double high) implements Init {}

    /** Normal with the given mean and standard deviation. */
    record Normal(double mean, double std) implements Init {}

    /** Explicit values, flattened in row-major (C) order; their nesting matched the shape. */
    record Values(double[] flat) implements Init {}

    /** Every element the same. */
    record Constant(double value) implements Init {}

    /** start, start+step, start+2·step, ... in row-major order. */
    record Range(double start, double step) implements Init {}
}
