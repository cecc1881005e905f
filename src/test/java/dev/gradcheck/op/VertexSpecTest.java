package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A ComputationGraph's non-layer vertex as a layer spec's type: fed the spec's inputs in a graph of its own, each
 * input's gradient from its hand-written doBackward checked; a wrong one fails naming the vertex.
 */
class VertexSpecTest {

    private static List<String> rows(CheckResult r, boolean failing) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN)
                .filter(g -> !failing || g.verdict() != Verdict.PASS).map(GradientResult::input).toList();
    }

    @Test
    void aVertexIsCheckedForEveryInputItIsFed() {
        CheckResult r = LayerChecks.check("name: add\nlayer: {type: ElementWiseVertex, op: Product}\ninputs:\n"
                + "  a: {shape: [2, 3]}\n  b: {shape: [2, 3]}\n  c: {shape: [2, 3]}\n");
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(List.of("a", "b", "c"), rows(r, false));
    }

    @Test
    void aVertexWhoseBackwardForgetsItsScaleFailsOnItsInput() {
        String yaml = "name: scale\nlayer: {type: %s, scaleFactor: 2.5}\ninputs:\n  a: {shape: [2, 3]}\n";
        assertEquals(Status.PASSED, LayerChecks.check(yaml.formatted("ScaleVertex")).status());
        CheckResult wrong = LayerChecks.check(yaml.formatted(WrongScaleVertex.class.getName()));
        assertEquals(Status.FAILED, wrong.status());
        assertEquals(List.of("a"), rows(wrong, true));
        GradientResult a = wrong.gradients().stream().filter(g -> g.input().equals("a")).findFirst().orElseThrow();
        assertEquals(1, a.worst().analytic(), 1e-9, "the epsilon handed back unscaled");
        assertEquals(2.5, a.worst().numerical(), 1e-6);
        assertEquals(WrongScaleVertex.class.getName(), wrong.op(), "the vertex named as the spec's op");
    }

    /** An input DuplicateToTimeSeriesVertex reads by name (the series it copies along) is never checked. */
    @Test
    void anInputReadByNameIsNotFedAndNotChecked() {
        CheckResult r = LayerChecks.check("name: dup\nlayer: {type: DuplicateToTimeSeriesVertex, inputName: ts}\n"
                + "inputs:\n  a: {shape: [2, 3]}\n  ts: {shape: [2, 4, 5]}\n");
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(List.of("a"), rows(r, false));
    }

    /** LastTimeStepVertex takes each example's last real step under the graph's mask, as a graph sets it. */
    @Test
    void aMaskIsSetOnTheGraphAsItsInputsMask() throws Exception {
        String yaml = "name: last\nlayer: {type: LastTimeStepVertex, maskArrayInputName: a}\ninputs:\n"
                + "  a: {shape: [2, 3, 5]}\n  mask: {shape: [2, 5], init: {values: [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]}}\n";
        CheckResult r = LayerChecks.check(yaml);
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(List.of("a"), rows(r, false));
        var loaded = new dev.gradcheck.spec.SpecLoader().loadText("v.yaml", "v", yaml).get(0).spec();
        INDArray a = Nd4j.rand(DataType.DOUBLE, 2, 3, 5);
        INDArray mask = Nd4j.createFromArray(new double[][] {{1, 1, 1, 1, 1}, {1, 1, 1, 0, 0}});
        Map<String, INDArray> in = Map.of("a", a, "mask", mask);
        INDArray out = LayerSpecs.build(loaded, in, getClass().getClassLoader()).forward(in).get("out");
        assertEquals(a.get(org.nd4j.linalg.indexing.NDArrayIndex.point(1), org.nd4j.linalg.indexing.NDArrayIndex
                .all(), org.nd4j.linalg.indexing.NDArrayIndex.point(2)), out.getRow(1), "example 1's last real step");
    }

    /** DL4J's graph builder lets an L2Vertex have three inputs, and its backward then fails out of bounds. */
    @Test
    void aVertexFedMoreInputsThanItTakesIsInvalid() {
        CheckResult r = LayerChecks.check("name: l2\nlayer: {type: L2Vertex}\ninputs:\n  a: {shape: [2, 3]}\n"
                + "  b: {shape: [2, 3]}\n  c: {shape: [2, 3]}\n");
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().contains("layer.yaml:2:15: L2Vertex takes 2 inputs; the spec feeds it 3: a, b, c"),
                r::message);
    }

    @Test
    void anOptionTheVertexLacksIsInvalidAtTheOption() {
        CheckResult r = LayerChecks.check("name: s\nlayer: {type: ScaleVertex, scale: 2}\ninputs:\n"
                + "  a: {shape: [2, 3]}\n");
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().contains("layer.yaml:2:35: ScaleVertex: unknown option 'scale'; valid: scaleFactor"),
                r::message);
    }
}
