package dev.gradcheck.spec;

/**
 * Paddle's ErrorClipByValue on one variable of a graph: in the backward pass the variable's gradient is clipped
 * elementwise to [lower, upper] before it flows on.
 *
 * @param min the lower bound as written, or null when left out (it then defaults to -max)
 * @param max the upper bound
 * @param pos where {@code error_clip} is written
 */
public record ErrorClip(Double min, double max, SourcePos pos) {

    public double lower() {
        return min != null ? min : -max;
    }

    public double upper() {
        return max;
    }
}
