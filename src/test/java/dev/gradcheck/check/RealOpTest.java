package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.OpSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The checker on real ND4J ops: attributes reach the kernel, and a corrupted backward is caught. */
class RealOpTest {

    private final Nd4jOpBuilder builder = new Nd4jOpBuilder(OpCatalog.nd4j());

    private CheckResult check(String yaml) {
        return new GradientChecker(builder::build, "cpu").check(Specs.parse(yaml));
    }

    @Test
    void softmaxOverRowsPasses() {
        CheckResult r = check("""
                op: softmax
                attrs: {dimension: 1}
                inputs:
                  x: {shape: [3, 5], init: {uniform: [-2, 2]}}
                """);
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertTrue(r.gradients().get(0).maxRelError() < 1e-7);
        assertEquals(15 + 2 * 5, r.gradients().get(0).evaluations(), "compressed: 1 backward per output element,"
                + " 2 forwards per group of columns whose rows do not overlap (one column of each softmax row: 5)");
        CheckResult dense = check("""
                op: softmax
                attrs: {dimension: 1}
                compress: false
                inputs:
                  x: {shape: [3, 5], init: {uniform: [-2, 2]}}
                """);
        assertEquals(Status.PASSED, dense.status(), dense.toString());
        assertEquals(2 * 15 + 15, dense.gradients().get(0).evaluations(), "dense: 2 forwards per input element,"
                + " 1 backward per output");
    }

    @Test
    void theDimensionAttributeReachesTheKernel() throws Exception {
        OpSpec spec = Specs.parse("""
                op: softmax
                attrs: {dimension: 0}
                inputs:
                  x: {shape: [3, 4]}
                """);
        INDArray x = Nd4j.rand(org.nd4j.linalg.api.buffer.DataType.DOUBLE, 3, 4);
        try (Differentiable f = builder.build(spec, Map.of("x", x))) {
            INDArray y = f.forward(Map.of("x", x)).get("0");
            assertArrayEquals(new double[] {1, 1, 1, 1}, y.sum(0).toDoubleVector(), 1e-12, "columns sum to one");
        }
    }

    @Test
    void reductionDimensionsAndKeepDimsShapeTheOutput() throws Exception {
        OpSpec spec = Specs.parse("""
                op: reduce_sum
                attrs: {dimensions: [1], keepDims: true}
                inputs:
                  x: {shape: [3, 4]}
                """);
        INDArray x = Nd4j.ones(org.nd4j.linalg.api.buffer.DataType.DOUBLE, 3, 4);
        try (Differentiable f = builder.build(spec, Map.of("x", x))) {
            INDArray y = f.forward(Map.of("x", x)).get("0");
            assertArrayEquals(new long[] {3, 1}, y.shape());
            assertEquals(4.0, y.getDouble(0));
        }
    }

    private INDArray forward(String yaml, INDArray x) throws Exception {
        try (Differentiable f = builder.build(Specs.parse(yaml), Map.of("x", x))) {
            return f.forward(Map.of("x", x)).get("0");
        }
    }

    @Test
    void scalarOpsTakeTheirScalarFromTheAttribute() throws Exception {
        INDArray x = Nd4j.createFromArray(-1.0, 0.2, 0.7, 2.0);
        // ND4J's relu with a cutoff is max(x, cutoff)
        assertArrayEquals(new double[] {0.5, 0.5, 0.7, 2}, forward("""
                op: relu
                attrs: {cutoff: 0.5}
                inputs: {x: {shape: [4]}}
                """, x).toDoubleVector(), 1e-12);
        assertArrayEquals(new double[] {-0.2, 0.2, 0.7, 2}, forward("""
                op: leakyrelu
                attrs: {alpha: 0.2}
                inputs: {x: {shape: [4]}}
                """, x).toDoubleVector(), 1e-12);
        assertArrayEquals(new double[] {-1, 0.008, 0.343, 8}, forward("""
                op: pow
                attrs: {pow: 3}
                inputs: {x: {shape: [4]}}
                """, x).toDoubleVector(), 1e-12);
    }

    @Test
    void varianceHonoursBiasCorrection() throws Exception {
        INDArray x = Nd4j.createFromArray(1.0, 2.0, 3.0, 4.0);
        assertEquals(1.25, forward("""
                op: var
                attrs: {biasCorrected: false}
                inputs: {x: {shape: [4]}}
                """, x).getDouble(0), 1e-12);
        assertEquals(5.0 / 3, forward("""
                op: var
                inputs: {x: {shape: [4]}}
                """, x).getDouble(0), 1e-12, "Bessel's correction by default");
    }

    @Test
    void matmulWithTransposePasses() {
        CheckResult r = check("""
                op: matmul
                attrs: {transX: 1, transY: 1}
                inputs:
                  a: {shape: [4, 3]}
                  b: {shape: [5, 4]}
                """);
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals(2, r.rowsOf(CheckKind.JACOBIAN).size());
    }

    @Test
    void aRealOpWithAScaledBackwardFails() {
        OpSpec spec = Specs.parse("""
                op: tanh
                inputs:
                  x: {shape: [2, 3], init: {uniform: [-2, 2]}}
                """);
        FunctionFactory corrupted = (s, in) -> Functions.withBackward(builder.build(s, in), Functions.scaledBy(0.999));
        CheckResult r = new GradientChecker(corrupted, "cpu").check(spec);
        assertEquals(Status.FAILED, r.status());
        assertEquals(1e-3, r.gradients().get(0).maxRelError(), 1e-6);
    }

    @Test
    void float32IsJudgedAgainstAFloat64Reference() {
        CheckResult r = check("""
                op: sigmoid
                inputs:
                  x: {shape: [4, 4], dtype: float32, init: {uniform: [-3, 3]}}
                """);
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals("float32", r.dtype());
        assertEquals(1e-6, r.delta(), "differences are taken in float64 whatever the op's dtype");
        // float32 rounding shows, but stays far inside the float32 default (1e-3)
        assertTrue(r.gradients().get(0).maxRelError() > 1e-9 && r.gradients().get(0).maxRelError() < 1e-3,
                r.toString());
    }

    @Test
    void unknownOpSuggestsTheClosestName() {
        CheckResult r = check("""
                op: sofmax
                inputs:
                  x: {shape: [2]}
                """);
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().matches("(?s).*:1:5: unknown op 'sofmax' \\(did you mean 'softmax'\\?\\).*"),
                r.message());
    }

    @Test
    void unknownAttributeSuggestsAndListsTheKnownOnes() {
        CheckResult r = check("""
                op: softmax
                attrs: {dimensoin: 1}
                inputs:
                  x: {shape: [2, 2]}
                """);
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().contains(":2:20: unknown attribute 'dimensoin' for op softmax (did you mean"
                + " 'dimension'?)"), r.message());
    }

    @Test
    void positionalArgumentsCannotSkipEarlierOnes() {
        CheckResult r = check("""
                op: matmul
                attrs: {transY: 1}
                inputs:
                  a: {shape: [2, 2]}
                  b: {shape: [2, 2]}
                """);
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().contains("'transY' needs 'transX' too"), r.message());
    }

    @Test
    void aBackwardThatThrowsIsAnOperatorError() {
        CheckResult r = check("""
                op: log_softmax
                attrs: {dimension: 1}
                inputs:
                  x: {shape: [2, 3]}
                """);
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("LogSoftMax"), r.message());
    }
}
