package dev.gradcheck.check;

import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.op.Nd4jTypes;
import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InputValues;
import dev.gradcheck.spec.OpSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One draw of a spec's inputs: the values its inits describe for a seed (spec/InputValues, pure Java), in the
 * dtypes under test, and the same rounded values in float64 for the reference.
 *
 * @param test       the inputs in the dtypes under test
 * @param reference  the same values in float64 (integer inputs unchanged): the reference sees exactly the (rounded)
 *                   values the op under test sees
 * @param allFloat64 whether every floating input is float64 already, so the build under test is its own reference
 */
public record DrawnInputs(Map<String, INDArray> test, Map<String, INDArray> reference, boolean allFloat64) {

    public static DrawnInputs draw(OpSpec spec, long seed) {
        Map<String, INDArray> test = underTest(spec, seed);
        Map<String, INDArray> reference = new LinkedHashMap<>();
        boolean allFloat64 = true;
        for (InputSpec in : spec.inputs()) {
            INDArray x = test.get(in.name());
            reference.put(in.name(), in.dtype().isFloating() ? x.castTo(DataType.DOUBLE) : x);
            allFloat64 &= !in.dtype().isFloating() || in.dtype() == DType.FLOAT64;
        }
        return new DrawnInputs(test, reference, allFloat64);
    }

    /** The inputs in the dtypes under test only: the same values again, for a node's check or a backend sample. */
    static Map<String, INDArray> underTest(OpSpec spec, long seed) {
        Map<String, INDArray> inputs = new LinkedHashMap<>();
        for (InputSpec in : spec.inputs()) {
            inputs.put(in.name(), Flat.array(InputValues.generate(in, seed), in.shape())
                    .castTo(Nd4jTypes.of(in.dtype())));
        }
        return inputs;
    }
}
