package dev.gradcheck.result;

/**
 * How many times a check called the function it judged: forward evaluations (each point of every difference, the
 * sanity rows' forwards) and backward passes (every vector-Jacobian product, the sanity rows' included). A wrong
 * backward that only shows from its N-th call on is invisible to a check that made fewer than N; this says how many
 * it made. Counted on the build under test and, where the check's dtype is not float64, on its float64 reference.
 */
public record Calls(long forward, long backward) {}
