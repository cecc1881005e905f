package dev.gradcheck.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.SmallNetworks;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Status;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A network from Java ({@link GradCheck#ofNetwork}): each layer checked at its activations, the wrong one named,
 * the network in memory left as it was; a SameDiff model's whole gradient for the variables wrt chooses.
 */
class NetworkCheckTest {

    private static final INDArray X = Nd4j.rand(DataType.DOUBLE, 2, 36).subi(0.5);
    private static final INDArray LABELS = Nd4j.createFromArray(new double[][] {{1, 0}, {0, 1}});

    @TempDir
    Path dir;

    private static MultiLayerNetwork network(String flaw) {
        return SmallNetworks.convDenseOutput(flaw);
    }

    @Test
    void aNetworkInMemoryIsCheckedLayerByLayerAndLeftAsItWas() {
        MultiLayerNetwork net = network("none");
        INDArray before = net.params().dup();
        CheckResult r = GradCheck.ofNetwork(net).input("x", X).input("labels", LABELS).fast().check();
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(List.of("conv1", "fc", "out"), r.nodes().stream().map(NodeFinding::out).toList());
        assertTrue(r.gradients().stream().anyMatch(g -> g.input().equals("0_W")), "the whole network's rows");
        assertEquals(before, net.params(), "the check ran on a copy");
    }

    @Test
    void aWrongLayerIsNamedAndFailsTheAssertion() throws Exception {
        CheckResult r = GradCheck.ofNetwork(SmallNetworks.saved("weights", dir.resolve("net.zip"))).input("x", X).check();
        assertEquals(Status.FAILED, r.status());
        assertTrue(r.message().startsWith("layer 0 (conv1, WrongConvolution) is wrong"), r.message());
        assertEquals(List.of(Status.FAILED, Status.PASSED), r.nodes().stream().map(NodeFinding::status).toList());
        AssertionError e = assertThrows(AssertionError.class, () -> GradAssertions.assertGradientsMatch(r));
        assertTrue(e.getMessage().contains("conv1"), e::getMessage);
    }

    /** y = cumprod(tanh(x·w)) ⊙ v: ND4J's cumprod backward is wrong, so w's whole gradient fails, v's passes. */
    @Test
    void aSameDiffModelsWholeGradientIsForTheVariablesChosen() {
        SameDiff sd = SameDiff.create();
        SDVariable x = sd.placeHolder("x", DataType.DOUBLE, -1, 2);
        SDVariable w = sd.var("w", Nd4j.linspace(DataType.DOUBLE, -0.8, 0.6, 4).reshape(2, 2));
        SDVariable v = sd.var("v", Nd4j.linspace(DataType.DOUBLE, 0.5, 1.5, 6).reshape(3, 2));
        sd.math().mul("y", sd.cumprod("c", sd.nn().tanh("h", sd.mmul("m", x, w)), false, false, 0), v);
        INDArray in = Nd4j.rand(DataType.DOUBLE, 3, 2).subi(0.5).muli(3);
        CheckResult onlyV = GradCheck.ofNetwork(sd).input("x", in).fast().wrt("v").check();
        assertEquals(Set.of("v"), wholeRows(onlyV));
        java.io.PrintStream before = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        CheckResult all;
        try {
            all = GradCheck.ofNetwork(sd).input("x", in).fast().check();
        } finally {
            System.setOut(before);
        }
        assertTrue(!printed.toString(java.nio.charset.StandardCharsets.UTF_8).contains("Added differentiated op"),
                "SameDiff's chatter stays off the caller's stdout");
        assertEquals(Status.FAILED, all.status());
        assertEquals(Set.of("v", "w"), wholeRows(all));
        assertTrue(all.gradients().stream().anyMatch(g -> g.output().equals("y") && g.input().equals("w")
                && g.verdict() != dev.gradcheck.result.Verdict.PASS), "w reaches y through cumprod");
    }

    private static Set<String> wholeRows(CheckResult r) {
        return r.gradients().stream().filter(g -> g.output().equals("y") && Set.of("v", "w").contains(g.input()))
                .map(GradientResult::input).collect(Collectors.toSet());
    }
}
