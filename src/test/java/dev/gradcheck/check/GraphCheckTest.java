package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.jacobian.SplitNumericalJacobian;
import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.GradientClip;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.ErrorClip;
import dev.gradcheck.spec.InputValues;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Graph specs end to end on real ND4J ops: path sums, a wrong op located, clips checked against a split graph. */
class GraphCheckTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());

    private static CheckResult check(Nd4jOpBuilder builder, String yaml) {
        return new GraphAwareChecker(builder::build, "cpu", MemoryBudget.forThisJvm()).check(Specs.parse(yaml));
    }

    /** x reaches y directly and through tanh(x·w): its gradient is the sum over both paths. */
    private static final String RESIDUAL = """
            graph:
              - {op: matmul, in: [x, w], out: h}
              - {op: tanh, in: [h], out: a}
              - {op: add, in: [x, a], out: y}
            inputs:
              x: {shape: [2, 3]}
              w: {shape: [3, 3]}
            """;

    @Test
    void aCorrectGraphPassesAndIsNotTakenApart() {
        CheckResult r = check(BUILDER, RESIDUAL);
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals("graph", r.op());
        assertEquals(List.of("y/x", "y/w"), r.rowsOf(CheckKind.JACOBIAN).stream().map(g -> g.output() + "/" + g.input()).toList());
        assertTrue(r.nodes().isEmpty(), "nodes are checked on their own only when the graph fails");
    }

    @Test
    void aGraphWithOneWrongNd4jOpFailsAndNamesThatNode() {
        CheckResult r = check(BUILDER, """
                graph:
                  - {op: tanh, in: [x], out: t}
                  - {op: cumprod, in: [t, axis], out: c, attrs: {exclusive: 0, reverse: 0}}
                  - {op: multiply, in: [c, w], out: y}
                inputs:
                  x: {shape: [3, 2], init: {uniform: [-1.5, 1.5]}}
                  axis: {shape: [], dtype: int32, init: {values: 0}}
                  w: {shape: [3, 2]}
                """);
        assertEquals(Status.FAILED, r.status(), r.toString());
        assertEquals(3, r.nodes().size(), r.nodes().toString());
        List<NodeFinding> wrong = r.nodes().stream().filter(NodeFinding::wrong).toList();
        assertEquals(1, wrong.size(), r.nodes().toString());
        NodeFinding cumprod = wrong.get(0);
        assertEquals("node 2 (cumprod, out=c)", cumprod.describe());
        assertEquals(Status.FAILED, cumprod.status());
        assertEquals("test.yaml:3:5", cumprod.location());
        assertTrue(cumprod.worst().maxRelError() > 0.1, cumprod.toString());
        assertEquals("t", cumprod.worst().input(), "checked w.r.t. the captured value of t");
        assertEquals("c", cumprod.worst().output(), "the block is named by the node's out");
    }

    /** y = s ⊙ tanh(x·w) with dy/dh clipped to [-0.3, 0.3]; s has both signs, so both bounds matter. */
    private static final String CLIPPED = """
            graph:
              - {op: matmul, in: [x, w], out: h, error_clip: {max: 0.3}}
              - {op: tanh, in: [h], out: t}
              - {op: multiply, in: [t, s], out: y}
            inputs:
              x: {shape: [3, 4], init: {uniform: [-1, 1]}}
              w: {shape: [4, 2], init: {uniform: [-0.5, 0.5]}}
              s: {shape: [2], init: {values: [1.0, -0.8]}}
            no_grad: [s]
            """;

    @Test
    void aClipThatChangesTheGradientIsCheckedAndPasses() throws Exception {
        CheckResult r = check(BUILDER, CLIPPED);
        assertEquals(Status.PASSED, r.status(), r.toString());
        INDArray clipped = gradientOfW(CLIPPED);
        INDArray unclipped = gradientOfW(CLIPPED.replace(", error_clip: {max: 0.3}", ""));
        assertTrue(clipped.sub(unclipped).amaxNumber().doubleValue() > 0.1,
                "the clip must change the gradient, else this test shows nothing: " + clipped + " vs " + unclipped);
    }

    private static INDArray gradientOfW(String yaml) throws Exception {
        OpSpec spec = Specs.parse(yaml);
        Map<String, INDArray> inputs = inputs(spec);
        try (Differentiable f = BUILDER.build(spec, inputs)) {
            return f.vjp(inputs, Map.of("y", Nd4j.ones(org.nd4j.linalg.api.buffer.DataType.DOUBLE, 3, 2)), List.of("w")).get("w");
        }
    }

    @Test
    void aClipWhoseMinDoesNotDefaultToMinusMaxFails() {
        GradientClip minDefaultsToZero = (g, c) -> GradientClip.BY_VALUE.apply(g,
                new ErrorClip(c.min() != null ? c.min() : 0.0, c.max(), c.pos()));
        CheckResult r = check(BUILDER.withGradientClip(minDefaultsToZero), CLIPPED);
        assertEquals(Status.FAILED, r.status(), r.toString());
        assertEquals(3, r.nodes().size());
        assertFalse(r.nodes().stream().anyMatch(NodeFinding::wrong),
                "every op is right alone: the clip between them is what is wrong");
    }

    @Test
    void theSplitReferenceMatchesTheClosedForm() throws Exception {
        // y = (x ⊙ c) ⊙ k, dy/dh = k clipped to [-0.3, 0.3], then x's own gradient clipped to [-0.4, 0.4]
        OpSpec spec = Specs.parse("""
                graph:
                  - {op: multiply, in: [x, c], out: h, error_clip: {max: 0.3}}
                  - {op: multiply, in: [h, k], out: y}
                inputs:
                  x: {shape: [4], error_clip: {max: 0.4}}
                  c: {shape: [4], init: {values: [2, 3, 4, 0.5]}}
                  k: {shape: [4], init: {values: [0.5, -1, 0.1, -0.2]}}
                no_grad: [c, k]
                """);
        Map<String, INDArray> inputs = inputs(spec);
        try (Differentiable f = BUILDER.build(spec, inputs)) {
            Jacobian j = SplitNumericalJacobian.compute(f.clippedGraph().orElseThrow(), inputs, "x", 1e-6, new Counter())
                    .get("y");
            double[] diagonal = new double[4];
            for (int i = 0; i < 4; i++) {
                diagonal[i] = j.values()[i][i];
            }
            // clip(k)·c = [0.6, -0.9, 0.4, -0.1], then clipped to [-0.4, 0.4]
            assertArrayEquals(new double[] {0.4, -0.4, 0.4, -0.1}, diagonal, 1e-8);
            assertEquals(0.0, j.values()[0][1], 1e-12);
        }
    }

    @Test
    void aShapeMismatchIsInvalidAtTheNode() {
        CheckResult r = check(BUILDER, """
                graph:
                  - {op: tanh, in: [x], out: t}
                  - {op: matmul, in: [t, w], out: y}
                inputs:
                  x: {shape: [2, 3]}
                  w: {shape: [2, 3]}
                """);
        assertEquals(Status.INVALID, r.status(), r.toString());
        assertTrue(r.message().startsWith("test.yaml:3:10: node 2 (matmul, out=y) does not accept its inputs"
                + " (t [2, 3], w [2, 3])"), r.message());
        // the kernel's own reason is not in the exception; ND4J's pointer to it is dropped, not turned into a claim
        // about stderr (a worker adds libnd4j's words to the message: WorkerValidationReasonTest)
        assertTrue(r.message().endsWith("failed to execute."), r.message());
        assertFalse(r.message().contains("stderr") || r.message().contains("Here is the error"), r.message());
    }

    @Test
    void unknownOpsAndAttributesOfEveryNodeAreInvalidAtTheNode() {
        CheckResult r = check(BUILDER, """
                graph:
                  - {op: tanhh, in: [x], out: t}
                  - {op: softmax, in: [t], out: y, attrs: {dimensionn: 1}}
                inputs:
                  x: {shape: [2, 3]}
                """);
        assertEquals(Status.INVALID, r.status(), r.toString());
        List<String> lines = r.message().lines().toList();
        assertEquals(2, lines.size(), r.message());
        assertTrue(lines.get(0).startsWith("test.yaml:2:10: unknown op 'tanhh' (did you mean 'tanh'?)"), lines.get(0));
        assertTrue(lines.get(1).startsWith("test.yaml:3:"), lines.get(1));
    }

    private static Map<String, INDArray> inputs(OpSpec spec) {
        Map<String, INDArray> inputs = new LinkedHashMap<>();
        spec.inputs().forEach(in -> inputs.put(in.name(),
                Nd4j.createFromArray(InputValues.generate(in, spec.seed())).reshape('c', in.shape())));
        return inputs;
    }
}
