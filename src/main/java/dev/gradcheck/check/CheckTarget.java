package dev.gradcheck.check;

import dev.gradcheck.op.Differentiable;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * What one pass of the checker compares: the build under test (its backward is judged) and the float64 reference
 * (differentiated numerically), at given input values. For order 2 the same shape of thing describes the
 * backward itself as a function, so every mode serves both orders.
 *
 * @param order      1, or 2 when the functions are backwards
 * @param test       the build under test
 * @param reference  the float64 build, or {@code test} itself when that is already float64
 * @param testInputs input values in the test build's dtypes
 * @param refInputs  the same values in float64 (integer inputs unchanged); perturbed in place and restored
 * @param wrt        the inputs checked
 * @param outputs    the outputs checked
 * @param testAtX    the test build's outputs at the inputs (every output, so cotangents can be shaped)
 * @param refAtX     the reference's outputs at the inputs
 */
record CheckTarget(int order, Differentiable test, Differentiable reference, Map<String, INDArray> testInputs,
                   Map<String, INDArray> refInputs, List<String> wrt, List<String> outputs,
                   Map<String, INDArray> testAtX, Map<String, INDArray> refAtX) {

    /** One zero array per floating output of the test build, in its shape and dtype. */
    Map<String, INDArray> zeroCotangents() {
        Map<String, INDArray> zeros = new LinkedHashMap<>();
        for (String out : test.outputNames()) {
            INDArray y = testAtX.get(out);
            if (y != null && y.dataType().isFPType()) {
                zeros.put(out, Nd4j.zeros(y.dataType(), y.shape()));
            }
        }
        return zeros;
    }

    /** The largest |y| of an output, which sets the finite-difference noise floor. */
    double scale(String out) {
        INDArray y = refAtX.get(out);
        return y.length() == 0 ? 0 : Math.abs(y.castTo(DataType.DOUBLE).amaxNumber().doubleValue());
    }

    Map<String, long[]> outputShapes() {
        Map<String, long[]> shapes = new HashMap<>();
        outputs.forEach(out -> shapes.put(out, refAtX.get(out).shape()));
        return shapes;
    }

    NumericalDerivative numerical(Settings s, Counter evaluations) {
        return new NumericalDerivative(reference, refInputs, refAtX, outputs, s.stencil(), s.delta(), evaluations);
    }
}
