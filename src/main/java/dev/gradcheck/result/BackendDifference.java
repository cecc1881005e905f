package dev.gradcheck.result;

/**
 * How far one backend's outputs and gradients are from another's on the same inputs ({@code --backend all}):
 * the largest absolute difference, and the largest relative one with Paddle's denominator (|reference|, or 1
 * where that is below 1e-3), each with where it is. Reported, not judged: the gradient check itself judges each
 * backend against the numerical gradient. Computed by run/ from two backends' {@link BackendSample}s.
 *
 * @param against        the reference backend ("cpu")
 * @param maxOutputAbs   max |this - reference| over every floating output
 * @param maxOutputRel   max relative difference over the outputs
 * @param worstOutput    "output[flat index]" of the largest relative output difference, or "" when none
 * @param maxGradientAbs max |this - reference| over every checked input's gradient
 * @param maxGradientRel max relative difference over the gradients
 * @param worstGradient  "input[flat index]" of the largest relative gradient difference, or "" when none
 */
public record BackendDifference(String against, double maxOutputAbs, double maxOutputRel, String worstOutput,
                                double maxGradientAbs, double maxGradientRel, String worstGradient) {}
