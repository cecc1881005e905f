package dev.gradcheck.op;

import dev.gradcheck.spec.ErrorClip;
import org.nd4j.linalg.api.ndarray.INDArray;

/** How a graph's backward clips a variable's gradient; an interface so tests can plant a wrong clip. */
@FunctionalInterface
public interface GradientClip {

    /** Returns the clipped gradient as a new array; {@code gradient} is left as it is. */
    INDArray apply(INDArray gradient, ErrorClip clip);

    /** Paddle's ErrorClipByValue: every element to [lower, upper], NaN stays NaN. */
    GradientClip BY_VALUE = (g, clip) -> {
        INDArray out = g.dup();
        for (long i = 0; i < out.length(); i++) {
            double v = out.getDouble(i);
            if (!Double.isNaN(v)) {
                out.putScalar(i, Math.max(clip.lower(), Math.min(clip.upper(), v)));
            }
        }
        return out;
    };
}
