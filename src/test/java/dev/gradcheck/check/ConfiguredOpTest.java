package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Ops built through ND4J's API constructors (op/ConfiguredOps): the attributes reach both the kernel and the
 * Java backward, so their gradients check; before, conv2d in NHWC and conv1d were built with a null config.
 */
class ConfiguredOpTest {

    private final Nd4jOpBuilder builder = new Nd4jOpBuilder(OpCatalog.nd4j());

    private static final String CONV2D_NHWC = """
            op: conv2d
            attrs: {kH: 2, kW: 2, sH: 1, sW: 2, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 0, isNCHW: 1}
            inputs:
              x: {shape: [1, 3, 4, 2]}
              w: {shape: [2, 2, 2, 3]}
              b: {shape: [3]}
            """;

    @Test
    void conv2dInNhwcChecksAndACorruptedBackwardIsCaught() {
        assertEquals(Status.PASSED, new GradientChecker(builder::build, "cpu").check(Specs.parse(CONV2D_NHWC)).status());
        FunctionFactory corrupted = (s, in) -> Functions.withBackward(builder.build(s, in), Functions.rolled());
        assertEquals(Status.FAILED, new GradientChecker(corrupted, "cpu").check(Specs.parse(CONV2D_NHWC)).status());
    }

    @Test
    void conv1dTakesItsLayoutFromIsNcw() throws Exception {
        String spec = """
                op: conv1d
                attrs: {kW: 2, sW: 1, pW: 0, dW: 1, paddingMode: 0, isNCW: 1}
                inputs:
                  x: {shape: [2, 5, 3]}
                  w: {shape: [2, 3, 4]}
                """;
        Map<String, INDArray> in = new LinkedHashMap<>();
        in.put("x", Nd4j.rand(DataType.DOUBLE, 2, 5, 3));
        in.put("w", Nd4j.rand(DataType.DOUBLE, 2, 3, 4));
        try (Differentiable f = builder.build(Specs.parse(spec), in)) {
            assertArrayEquals(new long[] {2, 4, 4}, f.forward(in).get("0").shape(), "NWC: [batch, width, oC]");
        }
        assertEquals(Status.PASSED, new GradientChecker(builder::build, "cpu").check(Specs.parse(spec)).status());
    }

    @Test
    void scansReadTheirAxisInputAndFlags() throws Exception {
        String spec = """
                op: cumsum
                attrs: {exclusive: 1, reverse: 1}
                inputs:
                  x: {shape: [2, 3]}
                  axis: {shape: [], dtype: int32, init: {values: 1}}
                """;
        Map<String, INDArray> in = new LinkedHashMap<>();
        in.put("x", Nd4j.createFromArray(new double[][] {{1, 2, 3}, {4, 5, 6}}));
        in.put("axis", Nd4j.scalar(1));
        try (Differentiable f = builder.build(Specs.parse(spec), in)) {
            INDArray y = f.forward(in).get("0");
            assertArrayEquals(new double[] {5, 3, 0, 11, 6, 0}, y.reshape(6).toDoubleVector(), 1e-12);
        }
    }

    @Test
    void logPoissonFullReachesTheKernel() throws Exception {
        String spec = """
                op: log_poisson_loss
                attrs: {lossReduce: 0, full: true}
                inputs:
                  predictions: {shape: [1]}
                  weights: {shape: [1]}
                  labels: {shape: [1]}
                """;
        Map<String, INDArray> in = new LinkedHashMap<>();
        in.put("predictions", Nd4j.createFromArray(0.0));
        in.put("weights", Nd4j.createFromArray(1.0));
        in.put("labels", Nd4j.createFromArray(2.0));
        try (Differentiable f = builder.build(Specs.parse(spec), in)) {
            // exp(0) - 2*0 + Stirling's 2 ln 2 - 2 + ln(2 pi 2) / 2; without 'full' it would be 1
            double stirling = 2 * Math.log(2) - 2 + 0.5 * Math.log(4 * Math.PI);
            assertEquals(1 + stirling, f.forward(in).get("0").getDouble(0), 1e-12);
        }
    }

    /** A floating input that is not checked (an attention mask) is a constant: SameDiff demands no gradient for it. */
    @Test
    void anUncheckedFloatingInputIsAConstant() {
        String spec = """
                op: dot_product_attention
                attrs: {normalization: 0, outputWeights: 0}
                inputs:
                  q: {shape: [1, 2, 2]}
                  k: {shape: [1, 2, 3]}
                  v: {shape: [1, 2, 3]}
                  mask: {shape: [1, 3], init: {values: [[1, 1, 0]]}}
                no_grad: [mask]
                """;
        CheckResult r = new GradientChecker(builder::build, "cpu").check(Specs.parse(spec));
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals(3, r.rowsOf(CheckKind.JACOBIAN).size(), "q, k and v are checked, the mask is not");
        FunctionFactory corrupted = (s, in) -> Functions.withBackward(builder.build(s, in), Functions.scaledBy(1.01));
        assertEquals(Status.FAILED, new GradientChecker(corrupted, "cpu").check(Specs.parse(spec)).status());
    }
}
