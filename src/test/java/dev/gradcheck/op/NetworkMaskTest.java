package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.SpecLoader;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.LSTM;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.conf.layers.RnnOutputLayer;
import org.deeplearning4j.nn.conf.layers.recurrent.SimpleRnn;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/**
 * Masks in a network spec: the features mask ({@code mask}) set on the network for the forward pass that records
 * the layers' inputs, each layer checked under the mask DL4J hands it, and the labels mask ({@code labels_mask}) in
 * the whole network's score gradient.
 */
class NetworkMaskTest {

    @TempDir
    Path dir;

    private static final String SPEC = """
            name: masked
            network: net.zip
            mode: %s
            inputs:
              x: {shape: [2, 3, 5]}
              mask: {shape: [2, 5], init: {values: [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]}}
              labels: {shape: [2, 2, 5]}
            """;

    private void save(Layer recurrent) throws Exception {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(5)
                .dataType(DataType.DOUBLE).list()
                .layer(recurrent)
                .layer(new RnnOutputLayer.Builder(LossFunctions.LossFunction.MSE).name("out").nOut(2)
                        .activation(Activation.IDENTITY).build())
                .setInputType(InputType.recurrent(3, 5)).build());
        net.init();
        ModelSerializer.writeModel(net, new File(dir.resolve("net.zip").toString()), false);
    }

    private CheckResult check(String yaml) throws Exception {
        return LayerChecks.checkFile(dir.resolve("net.yaml"), yaml);
    }

    private static Set<String> failing(CheckResult r) {
        return r.gradients().stream().filter(g -> g.verdict() != Verdict.PASS)
                .map(g -> g.output() + "/" + g.input()).collect(Collectors.toSet());
    }

    private static SimpleRnn simpleRnn(SimpleRnn rnn) {
        rnn.setLayerName("rnn");
        rnn.setNOut(4);
        rnn.setActivationFn(Activation.TANH.getActivationFunction());
        return rnn;
    }

    @Test
    void simpleRnnUnderItsMaskPassesLayerByLayerAndAsAWhole() throws Exception {
        save(simpleRnn(new SimpleRnn.Builder().build()));
        CheckResult r = check(SPEC.formatted("fast"));
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(List.of("rnn", "out"), r.nodes().stream().map(NodeFinding::out).toList());
        assertTrue(r.gradients().stream().anyMatch(g -> g.input().equals("0_RW")), "the whole network's rows");
        assertEquals(List.of(true, false), masked(SPEC.formatted("fast")), "an RnnOutputLayer takes the labels mask");
    }

    /**
     * DL4J's LSTM under a mask backpropagates the gradient its padded steps receive (docs/dl4j-findings.md), but a
     * network never hands it the mask: its {@code feedForwardMaskArray} passes the mask on without keeping it, so in
     * a network it runs over the padded steps as over real ones, its backward consistent with that. Its layer check
     * takes no mask, the output layer's does, and the network passes.
     */
    @Test
    void aNetworkHandsItsLstmNoMaskAndPasses() throws Exception {
        save(new LSTM.Builder().name("lstm").nOut(4).activation(Activation.TANH).build());
        String yaml = SPEC.formatted("fast");
        CheckResult r = check(yaml);
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(List.of(false, false), masked(yaml), "which layers are checked under a mask");
    }

    /** For each layer of the network, whether its check is under a mask. */
    private List<Boolean> masked(String yaml) throws Exception {
        List<NetworkLayers.Layer> layers = NetworkLayers.of(new SpecLoader().loadText(dir.resolve("net.yaml")
                .toString(), "net", yaml).get(0).spec(), getClass().getClassLoader());
        return layers.stream().map(l -> l.spec().inputs().stream().anyMatch(i -> i.name().equals(LayerSpecs.MASK)))
                .toList();
    }

    @Test
    void aLayerThatForgetsItsMaskIsNamedInTheNetwork() throws Exception {
        save(simpleRnn(new MaskIgnoringRnn()));
        CheckResult r = check(SPEC.formatted("full"));
        assertEquals(Status.FAILED, r.status(), r::message);
        assertTrue(r.message().startsWith("layer 0 (rnn, MaskIgnoringRnn) is wrong"), r.message());
        assertEquals(Status.PASSED, r.nodes().get(1).status());
    }

    /**
     * A many-to-one sequence task: only each sample's last real step is labelled. The output layer is checked
     * under the labels mask, and the whole network's score gradient with it.
     */
    @Test
    void aLabelsMaskedOutputLayerAndTheWholeNetworkPass() throws Exception {
        save(simpleRnn(new SimpleRnn.Builder().build()));
        CheckResult r = check(SPEC.formatted("fast") + "  labels_mask: {shape: [2, 5], init: {values: [[0, 0, 0, 0,"
                + " 1], [0, 0, 1, 0, 0]]}}\n");
        assertEquals(Status.PASSED, r.status(), r::message);
        List<GradientResult> whole = r.gradients().stream().filter(g -> g.output().equals(NetworkScore.SCORE)
                && g.input().contains("_") && g.kind() == CheckKind.FAST).toList();
        assertEquals(Set.of("0_W", "0_RW", "0_b", "1_W", "1_b"), whole.stream().map(GradientResult::input)
                .collect(Collectors.toSet()));
        assertEquals(List.of(true, true), masked(Files.readString(dir.resolve("net.yaml"))));
    }

    /** The whole network's score is DL4J's score with both masks, which differs from the unmasked one. */
    @Test
    void theWholeNetworksScoreIsDl4jsScoreUnderTheMasks() throws Exception {
        save(simpleRnn(new SimpleRnn.Builder().build()));
        String yaml = SPEC.formatted("fast") + "  labels_mask: {shape: [2, 5], init: {values: [[0, 0, 0, 0, 1],"
                + " [0, 0, 1, 0, 0]]}}\n";
        Files.writeString(dir.resolve("net.yaml"), yaml);
        var spec = new SpecLoader().loadText(dir.resolve("net.yaml").toString(), "net", yaml).get(0).spec();
        NetworkScore score = NetworkScore.of(spec, getClass().getClassLoader());
        double ours = score.forward(Map.of()).get(NetworkScore.SCORE).getDouble(0);
        MultiLayerNetwork net = ModelSerializer.restoreMultiLayerNetwork(dir.resolve("net.zip").toFile(), false);
        var in = NetworkMasks.drawn(spec.input("x"), spec);
        var labels = NetworkMasks.drawn(spec.input("labels"), spec);
        double masked = net.score(new DataSet(in, labels, NetworkMasks.drawn(spec.input("mask"), spec),
                NetworkMasks.drawn(spec.input("labels_mask"), spec)), true);
        assertEquals(masked, ours, 1e-12);
        assertNotEquals(net.score(new DataSet(in, labels), true), ours, 1e-6);
    }

    /** A ComputationGraph takes its input {@code in}'s mask as {@code in_mask}; a mask of no input is INVALID. */
    @Test
    void aGraphsInputIsMaskedByItsName() throws Exception {
        ComputationGraph graph = new ComputationGraph(new NeuralNetConfiguration.Builder().seed(5)
                .dataType(DataType.DOUBLE).graphBuilder().addInputs("in")
                .addLayer("rnn", simpleRnn(new SimpleRnn.Builder().build()), "in")
                .addLayer("out", new RnnOutputLayer.Builder(LossFunctions.LossFunction.MSE).nOut(2)
                        .activation(Activation.IDENTITY).build(), "rnn")
                .setOutputs("out").setInputTypes(InputType.recurrent(3, 5)).build());
        graph.init();
        ModelSerializer.writeModel(graph, new File(dir.resolve("net.zip").toString()), false);
        String yaml = SPEC.formatted("fast").replace("  x:", "  in:").replace("  mask:", "  in_mask:");
        CheckResult r = check(yaml);
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(List.of(true, false), masked(yaml));
        CheckResult wrong = check(yaml.replace("  in_mask:", "  x_mask:"));
        assertEquals(Status.INVALID, wrong.status());
        assertTrue(wrong.message().contains("input 'x_mask' masks no input of the network (its inputs: in;"),
                wrong::message);
    }
}
