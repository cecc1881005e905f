package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Status;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/**
 * A saved network as a spec: each layer checked at the activations the network's forward pass gives it, with the
 * network's own parameters; a wrong layer named by its index, name and type.
 */
class NetworkSpecTest {

    @TempDir
    Path dir;

    /**
     * A small LeNet-like network on flat 6x6 images: conv, pooling, dense, output; the conv is a user's layer
     * (flaw or none).
     */
    private Path saveNetwork(String flaw) throws Exception {
        WrongConvolution conv = new WrongConvolution();
        conv.setFlaw(flaw);
        conv.setNOut(3);
        conv.setKernelSize(new int[] {3, 3});
        conv.setLayerName("conv1");
        conv.setActivationFn(Activation.TANH.getActivationFunction());
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(3)
                .dataType(DataType.DOUBLE).list()
                .layer(conv)
                .layer(new SubsamplingLayer.Builder(2, 2).name("pool").build())
                .layer(new DenseLayer.Builder().name("fc").nOut(5).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MSE).name("out").nOut(2)
                        .activation(Activation.IDENTITY).build())
                .setInputType(InputType.convolutionalFlat(6, 6, 1)).build()); // preprocessors: flat to CNN, CNN to flat
        net.init();
        Path zip = dir.resolve("net.zip");
        ModelSerializer.writeModel(net, new File(zip.toString()), false);
        return zip;
    }

    private CheckResult check(String extra) throws Exception {
        return LayerChecks.checkFile(dir.resolve("net.yaml"),
                "name: net\nnetwork: net.zip\ninputs:\n  x: {shape: [2, 36]}\n" + extra);
    }

    @Test
    void everyLayerIsCheckedAtItsActivationsAndTheRightNetworkPasses() throws Exception {
        saveNetwork("none");
        CheckResult r = check("  labels: {shape: [2, 2]}\n");
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(List.of("conv1", "pool", "fc", "out"), r.nodes().stream().map(NodeFinding::out).toList());
        assertEquals(List.of(0, 1, 2, 3), r.nodes().stream().map(NodeFinding::node).toList());
        assertTrue(r.nodes().stream().allMatch(n -> n.status() == Status.PASSED));
    }

    @Test
    void aWrongLayerIsNamedByItsIndexNameAndType() throws Exception {
        saveNetwork("weights");
        CheckResult r = check("");
        assertEquals(Status.FAILED, r.status());
        assertTrue(r.message().startsWith("layer 0 (conv1, WrongConvolution) is wrong"), r.message());
        assertEquals(List.of(Status.FAILED, Status.PASSED, Status.PASSED),
                r.nodes().stream().map(NodeFinding::status).toList()); // no labels: the output layer is left out
        assertEquals("W", r.nodes().get(0).worst().input());
    }

    /** A layer DL4J cannot run is an error, which a network spec may expect as a one-op spec does. */
    @Test
    void aLayerWhoseBackwardThrowsIsAnErrorThatTheSpecMayExpect() throws Exception {
        saveNetwork("throws");
        CheckResult r = check("");
        assertEquals(Status.ERROR, r.status(), r::message);
        assertTrue(r.message().startsWith("layer 0 (conv1, WrongConvolution) is wrong"), r.message());
        String expectError = "expect: error\nreason: its backward throws\n";
        assertEquals(Status.EXPECTED_ERROR, check(expectError).status());
        assertEquals(Status.ERROR, check("expect: fail\nreason: a mismatch\n").status(), "an error is no failure");
        saveNetwork("none");
        assertEquals(Status.UNEXPECTED_PASS, check(expectError).status());
    }

    @Test
    void aNetworkDl4jCannotLoadIsInvalidAtItsPath() throws Exception {
        Files.writeString(dir.resolve("net.zip"), "not a zip");
        CheckResult r = check("");
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().contains("net.yaml:2:10: DL4J cannot load the network"), r.message());
    }

    @Test
    void aMissingNetworkFileIsSaidToBeMissing() throws Exception {
        CheckResult r = check(""); // net.zip never written
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().contains("net.yaml:2:10: DL4J cannot load the network")
                && r.message().endsWith("net.zip: no such file"), r.message());
    }

    /** check and no_grad would be ignored by a DL4J network's checks: refused at the name. */
    @Test
    void checkAndNoGradAreRefusedForADl4jNetwork() throws Exception {
        saveNetwork("none");
        CheckResult r = check("no_grad: [0_W]\n");
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().contains("net.yaml:5:11: check and no_grad do not apply to a DL4J network"),
                r.message());
    }
}
