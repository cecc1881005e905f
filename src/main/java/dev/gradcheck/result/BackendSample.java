package dev.gradcheck.result;

import java.util.Map;

/**
 * What one backend computed for a spec, kept to compare backends ({@code --backend all}): the forward outputs and
 * one backward pass, a vector-Jacobian product with a cotangent drawn from the spec's seed. It travels from a
 * worker to the front end as it is; the computation that takes it is {@code check.BackendSampler}.
 *
 * @param outputs   every floating output, flattened row-major, as float64
 * @param gradients the gradient of each checked input, flattened row-major, as float64
 */
public record BackendSample(Map<String, double[]> outputs, Map<String, double[]> gradients) {}
