package dev.gradcheck.check;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Builds the function a spec names over given input arrays (which fix dtypes and shapes). */
@FunctionalInterface
public interface FunctionFactory {
    Differentiable build(OpSpec spec, Map<String, INDArray> inputs) throws InvalidSpecException;
}
