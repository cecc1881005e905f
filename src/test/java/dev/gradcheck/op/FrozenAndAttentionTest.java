package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AttentionVertex (a SameDiff-defined vertex: twice the gradient of its forward, on its inputs and its parameters,
 * as DL4J's SameDiff-defined layers) and the frozen wrappers: a FrozenVertex's parameters are not trained (its
 * updater is DL4J's NoOp) so not checked, its inputs are; a FrozenLayer passes no gradient back by design, so a
 * network spec skips it with that reason, which fails nothing.
 */
class FrozenAndAttentionTest {

    private static final String ATTENTION = "{type: AttentionVertex, ninQueries: 4, ninKeys: 4, ninValues: 4,"
            + " nout: 4, nheads: 2, headSize: 2, projectInput: true}";
    private static final String QKV = "inputs:\n  q: {shape: [1, 4, 2]}\n  k: {shape: [1, 4, 2]}\n"
            + "  v: {shape: [1, 4, 2]}\n";

    @TempDir
    Path dir;

    private static List<GradientResult> rows(CheckResult r) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN).toList();
    }

    @Test
    void anAttentionVertexsInputsAndParametersAreCheckedAndEachIsDoubled() {
        CheckResult r = LayerChecks.check("name: att\nlayer: " + ATTENTION + "\n" + QKV);
        assertEquals(Status.FAILED, r.status());
        assertEquals(List.of("q", "k", "v", "Wq", "Wk", "Wv", "Wo"), rows(r).stream().map(GradientResult::input)
                .toList());
        for (GradientResult g : rows(r)) {
            assertEquals(2, g.worst().analytic() / g.worst().numerical(), 1e-6, g.input() + ": twice its forward's");
        }
    }

    @Test
    void aFrozenVertexsParametersAreNotCheckedItsInputsAre() {
        CheckResult r = LayerChecks.check("name: att\nlayer: {type: FrozenVertex, underlying: " + ATTENTION + "}\n"
                + QKV);
        assertEquals(List.of("q", "k", "v"), rows(r).stream().map(GradientResult::input).toList());
    }

    private CheckResult network(ComputationGraph graph) throws Exception {
        Files.writeString(dir.resolve("graph.json"), graph.getConfiguration().toJson());
        return LayerChecks.checkFile(dir.resolve("graph.yaml"), "name: g\nnetwork: graph.json\ninputs:\n"
                + "  in: {shape: [2, 4, 3]}\n");
    }

    private static NodeFinding node(CheckResult r, String name) {
        return r.nodes().stream().filter(n -> n.out().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aFrozenLayerInANetworkIsSkippedWithItsReasonAndFailsNothing() throws Exception {
        CheckResult r = network(VertexGraphs.frozen(false));
        assertEquals(Status.PASSED, r.status(), r::message);
        NodeFinding frozen = node(r, "frozen");
        assertEquals(Status.SKIPPED, frozen.status());
        assertTrue(frozen.message().contains("FrozenLayer passes no gradient back by design"), frozen::message);
        assertEquals(Status.PASSED, node(r, "fadd").status(), "a FrozenVertex's inputs are checked");
        assertEquals(Status.PASSED, node(r, "thawed").status());
        assertEquals("FrozenLayerWithBackprop", node(r, "thawed").op());
        assertTrue(rows(r).stream().noneMatch(g -> List.of("W", "RW", "b").contains(g.input())),
                "a frozen layer's parameters are not trained, so not checked: " + rows(r));
    }

    @Test
    void anAttentionVertexInANetworkIsFailedAndNamed() throws Exception {
        ComputationGraph graph = VertexGraphs.frozen(true);
        CheckResult r = network(graph);
        assertEquals(Status.FAILED, r.status());
        assertTrue(r.message().startsWith("vertex " + graph.getVertex("att").getVertexIndex()
                + " (att, AttentionVertex) is wrong"), r::message);
        NodeFinding att = node(r, "att");
        assertEquals(2, att.worst().worst().analytic() / att.worst().worst().numerical(), 1e-6);
        assertEquals(Status.PASSED, node(r, "fadd").status());
    }
}
