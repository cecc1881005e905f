package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
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
 * The whole network's score gradient with respect to all its parameters, in fast mode: one row per parameter array
 * (DL4J's key for it), passing for a right network and failing on the wrong layer's array for a wrong one.
 */
class NetworkScoreTest {

    @TempDir
    Path dir;

    private void save(String flaw) throws Exception {
        WrongConvolution conv = new WrongConvolution();
        conv.setFlaw(flaw);
        conv.setNOut(2);
        conv.setKernelSize(new int[] {3, 3});
        conv.setLayerName("conv1");
        conv.setActivationFn(Activation.TANH.getActivationFunction());
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(4).l2(1e-3)
                .dataType(DataType.DOUBLE).list()
                .layer(conv)
                .layer(new SubsamplingLayer.Builder(2, 2).name("pool").build())
                .layer(new DenseLayer.Builder().name("fc").nOut(4).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).name("out").nOut(3)
                        .activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutional(6, 6, 1)).build());
        net.init();
        ModelSerializer.writeModel(net, new File(dir.resolve("net.zip").toString()), false);
    }

    private CheckResult check(String mode) throws Exception {
        String yaml = "name: net\nnetwork: net.zip\nmode: " + mode + "\ninputs:\n  x: {shape: [3, 1, 6, 6]}\n"
                + "  labels: {shape: [3, 3], init: {values: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}\n";
        return LayerChecks.checkFile(dir.resolve("net.yaml"), yaml);
    }

    /** The score rows' verdicts by parameter array (a block rechecked in full shows as its Jacobian row). */
    private static Map<String, Verdict> scoreRows(CheckResult r) {
        Map<String, Verdict> rows = new TreeMap<>();
        for (GradientResult g : r.gradients()) {
            if (g.output().equals(NetworkScore.SCORE) && g.input().contains("_")
                    && (g.kind() == CheckKind.FAST || g.kind() == CheckKind.JACOBIAN)) {
                rows.merge(g.input(), g.verdict(), (a, b) -> a == Verdict.PASS ? b : a);
            }
        }
        return rows;
    }

    @Test
    void aRightNetworksScoreGradientPassesForEveryParameterArray() throws Exception {
        save("none");
        CheckResult r = check("fast");
        assertEquals(Status.PASSED, r.status(), r::message);
        Map<String, Verdict> rows = scoreRows(r);
        assertEquals(java.util.Set.of("0_W", "0_b", "2_W", "2_b", "3_W", "3_b"), rows.keySet());
        assertTrue(rows.values().stream().allMatch(v -> v == Verdict.PASS), rows::toString);
    }

    @Test
    void aWrongLayerFailsTheScoreGradientOnItsOwnArray() throws Exception {
        save("weights");
        CheckResult r = check("fast");
        assertEquals(Status.FAILED, r.status());
        Map<String, Verdict> rows = scoreRows(r);
        assertTrue(rows.get("0_W") != Verdict.PASS, rows::toString);
        rows.remove("0_W");
        assertTrue(rows.values().stream().allMatch(v -> v == Verdict.PASS), rows::toString);
    }

    @Test
    void fullModeChecksTheLayersAloneEntryByEntry() throws Exception {
        save("none");
        assertTrue(scoreRows(check("full")).isEmpty());
    }
}
