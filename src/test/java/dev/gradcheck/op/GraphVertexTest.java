package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.deeplearning4j.nn.conf.graph.ScaleVertex;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A ComputationGraph's vertices that are no layers, inside a network spec: each checked as a vertex spec at the
 * activations the graph fed it (every input), named by its vertex index, name and type; a wrong one FAILED and
 * named, the rest passing. The sequence vertices read the mask of the graph input they name, as in the graph.
 */
class GraphVertexTest {

    @TempDir
    Path dir;

    private static final String DENSE_INPUTS = "inputs:\n  in: {shape: [2, 3]}\n";
    private static final String SEQUENCE_INPUTS = "inputs:\n  seq: {shape: [2, 3, 5]}\n"
            + "  seq_mask: {shape: [2, 5], init: {values: [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]}}\n";

    private CheckResult check(ComputationGraph graph, String inputs) throws Exception {
        Files.writeString(dir.resolve("graph.json"), graph.getConfiguration().toJson());
        return LayerChecks.checkFile(dir.resolve("graph.yaml"), "name: g\nnetwork: graph.json\n" + inputs);
    }

    private static NodeFinding node(CheckResult r, String name) {
        return r.nodes().stream().filter(n -> n.out().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void everyVertexOfARightGraphIsCheckedAndPasses() throws Exception {
        CheckResult r = check(VertexGraphs.dense(new ScaleVertex(2.5)), DENSE_INPUTS);
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(Set.of("d1", "d2", "sum", "max", "prod", "merge", "subset", "scale", "shift", "norm", "dist",
                "stack", "unstack", "twice", "out"), r.nodes().stream().map(NodeFinding::out)
                .collect(Collectors.toSet()));
        assertTrue(r.nodes().stream().allMatch(n -> n.status() == Status.PASSED));
        assertEquals("ElementWiseVertex", node(r, "max").op());
        List<String> merged = r.gradients().stream().map(g -> g.input()).filter(i -> i.startsWith("unstack"))
                .toList();
        assertEquals(List.of("unstack", "unstack_2"), merged, "a vertex fed one input twice: both checked");
    }

    @Test
    void aWrongVertexInsideAGraphFailsNamedByIndexNameAndType() throws Exception {
        ComputationGraph graph = VertexGraphs.dense(new WrongScaleVertex(2.5));
        CheckResult r = check(graph, DENSE_INPUTS);
        assertEquals(Status.FAILED, r.status());
        int index = graph.getVertex("scale").getVertexIndex();
        assertEquals("vertex " + index + " (scale, WrongScaleVertex) is wrong", r.message().lines().findFirst()
                .orElseThrow().replaceAll(":.*", ""), r::message);
        NodeFinding scale = node(r, "scale");
        assertEquals(Status.FAILED, scale.status());
        assertEquals(index, scale.node());
        assertEquals("subset", scale.worst().input(), "its input named after the vertex that feeds it");
        assertEquals(1, scale.worst().worst().analytic() / scale.worst().worst().numerical() * 2.5, 1e-6,
                "the epsilon handed back unscaled");
        assertTrue(r.nodes().stream().filter(n -> n != scale).allMatch(n -> n.status() == Status.PASSED));
    }

    @Test
    void sequenceVerticesAreCheckedUnderTheMaskOfTheInputTheyName() throws Exception {
        CheckResult r = check(VertexGraphs.sequence(), SEQUENCE_INPUTS);
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(List.of("rnn", "last", "dup", "rev"), r.nodes().stream().map(NodeFinding::out).toList(),
                "in the graph's order");
    }

    /** Each vertex spec's forward at its recorded inputs gives what the vertex gave in the graph. */
    @Test
    void eachVertexSpecReproducesTheVertexsActivationInTheGraph() throws Exception {
        assertReproduced(VertexGraphs.sequence(), SEQUENCE_INPUTS);
        assertReproduced(VertexGraphs.dense(new ScaleVertex(2.5)), DENSE_INPUTS);
    }

    private void assertReproduced(ComputationGraph graph, String inputs) throws Exception {
        Path spec = dir.resolve("graph.yaml");
        Files.writeString(dir.resolve("graph.json"), graph.getConfiguration().toJson());
        String yaml = "name: g\nnetwork: graph.json\n" + inputs;
        Files.writeString(spec, yaml);
        OpSpec loaded = new SpecLoader().loadText(spec.toString(), "g", yaml).get(0).spec();
        ClassLoader loader = getClass().getClassLoader();
        ComputationGraph saved = (ComputationGraph) SavedNetworks.load(loaded, loader);
        String input = saved.getConfiguration().getNetworkInputs().get(0);
        NetworkMasks masks = NetworkMasks.of(loaded, List.of(input));
        masks.setOn(saved);
        Map<String, INDArray> acts = saved.feedForward(new INDArray[] {NetworkMasks.drawn(loaded.input(input),
                loaded)}, true);
        List<NetworkLayers.Layer> vertices = NetworkLayers.of(loaded, loader).stream()
                .filter(NetworkLayers.Layer::vertex).toList();
        assertEquals(saved.getVertices().length - saved.getNumLayers() - 1, vertices.size());
        for (NetworkLayers.Layer v : vertices) {
            OpSpec one = LayerSpecs.withParams(v.spec(), loader);
            Map<String, INDArray> values = new LinkedHashMap<>();
            for (InputSpec in : one.inputs()) {
                values.put(in.name(), NetworkMasks.drawn(in, one));
            }
            INDArray out = LayerSpecs.build(one, values, loader).forward(values).get(LayerFunction.OUTPUT);
            assertTrue(acts.get(v.name()).equalsWithEps(out, 1e-12), v.describe() + ": " + out + " vs "
                    + acts.get(v.name()));
        }
    }
}
