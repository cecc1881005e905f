package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.graph.MergeVertex;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.util.ModelSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/**
 * A ComputationGraph as a network spec: two convolution branches merged (MergeVertex) into a dense layer and an
 * output layer; every layer vertex checked at its real input (the dense layer at the merged activation), a wrong
 * branch named by its vertex name and type. Saved as a ModelSerializer zip and as its configuration's JSON.
 */
class GraphNetworkTest {

    @TempDir
    Path dir;

    private ComputationGraph graph(String flaw) {
        WrongConvolution right = new WrongConvolution();
        right.setFlaw(flaw);
        right.setNOut(2);
        right.setKernelSize(new int[] {3, 3});
        right.setConvolutionMode(ConvolutionMode.Same);
        right.setActivationFn(Activation.TANH.getActivationFunction());
        ComputationGraphConfiguration conf = new NeuralNetConfiguration.Builder().seed(11).dataType(DataType.DOUBLE)
                .graphBuilder().addInputs("in")
                .addLayer("left", new ConvolutionLayer.Builder(3, 3).nOut(2).convolutionMode(ConvolutionMode.Same)
                        .activation(Activation.TANH).build(), "in")
                .addLayer("right", right, "in")
                .addVertex("merge", new MergeVertex(), "left", "right")
                .addLayer("fc", new DenseLayer.Builder().nOut(3).activation(Activation.TANH).build(), "merge")
                .addLayer("out", new OutputLayer.Builder(LossFunctions.LossFunction.MSE).nOut(2)
                        .activation(Activation.IDENTITY).build(), "fc")
                .setOutputs("out").setInputTypes(InputType.convolutional(5, 5, 1)).build();
        ComputationGraph graph = new ComputationGraph(conf);
        graph.init();
        return graph;
    }

    private CheckResult check(String network, String extra) throws Exception {
        String yaml = "name: graph\nnetwork: " + network + "\ninputs:\n  x: {shape: [2, 1, 5, 5]}\n" + extra;
        return LayerChecks.checkFile(dir.resolve("graph.yaml"), yaml);
    }

    @Test
    void everyLayerVertexIsCheckedAtItsRealInputAndTheRightGraphPasses() throws Exception {
        ModelSerializer.writeModel(graph("none"), new File(dir.resolve("graph.zip").toString()), false);
        CheckResult r = check("graph.zip", "  labels: {shape: [2, 2]}\n");
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(java.util.Set.of("left", "right", "merge", "fc", "out"), r.nodes().stream()
                .map(NodeFinding::out).collect(java.util.stream.Collectors.toSet()));
        assertEquals(List.of(0, 1, 2, 3), r.nodes().stream().filter(n -> !n.op().equals("MergeVertex"))
                .map(NodeFinding::node).sorted().toList(), "each layer by its index in the graph's layers, as"
                + " getLayer(index)");
        assertTrue(r.nodes().stream().allMatch(n -> n.status() == Status.PASSED));
    }

    @Test
    void theLayerAfterAMergeSeesTheMergedActivation() throws Exception {
        ModelSerializer.writeModel(graph("none"), new File(dir.resolve("graph.zip").toString()), false);
        Path spec = dir.resolve("graph.yaml");
        String yaml = "name: graph\nnetwork: graph.zip\ninputs:\n  x: {shape: [2, 1, 5, 5]}\n";
        Files.writeString(spec, yaml);
        OpSpec loaded = new SpecLoader().loadText(spec.toString(), "graph", yaml).get(0).spec();
        NetworkLayers.Layer fc = NetworkLayers.of(loaded, getClass().getClassLoader()).stream()
                .filter(l -> l.name().equals("fc")).findFirst().orElseThrow();
        assertArrayEquals(new long[] {2, 4 * 5 * 5}, fc.spec().inputs().get(0).shape(),
                "both branches' 2 channels, merged, then flattened by the dense layer's preprocessor");
    }

    @Test
    void aWrongBranchIsNamedByItsVertexNameAndType() throws Exception {
        Files.writeString(dir.resolve("graph.json"), graph("weights").getConfiguration().toJson());
        CheckResult r = check("graph.json", "");
        assertEquals(Status.FAILED, r.status());
        assertTrue(r.message().matches("layer \\d \\(right, WrongConvolution\\) is wrong.*"), r.message());
        assertEquals(4, r.nodes().size(), "no labels: the output layer is left out (the merge vertex is in)");
        NodeFinding right = r.nodes().stream().filter(n -> n.out().equals("right")).findFirst().orElseThrow();
        assertEquals(Status.FAILED, right.status());
        assertEquals("W", right.worst().input());
        assertTrue(r.nodes().stream().filter(n -> n != right).allMatch(n -> n.status() == Status.PASSED));
    }
}
