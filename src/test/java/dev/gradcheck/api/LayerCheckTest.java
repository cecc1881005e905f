package dev.gradcheck.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.op.plugin.PluginJars;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** A DL4J layer from Java: its input and parameters checked, a wrong backward named, parameters in noGrad. */
class LayerCheckTest {

    private static final INDArray X = Nd4j.rand(DataType.DOUBLE, 2, 3, 5, 5).subi(0.5);

    private static GradCheck conv(String type) {
        return GradCheck.ofLayer(type).attr("nOut", 2).attr("kernelSize", List.of(3, 3)).attr("activation", "tanh")
                .input("x", X);
    }

    private static Set<String> rows(CheckResult r, boolean failing) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN)
                .filter(g -> !failing || g.verdict() != Verdict.PASS).map(GradientResult::input)
                .collect(Collectors.toSet());
    }

    @Test
    void aLayersInputAndParametersAreChecked() {
        CheckResult r = conv("ConvolutionLayer").check();
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(Set.of("x", "W", "b"), rows(r, false));
        assertEquals(Set.of("x", "W"), rows(conv("ConvolutionLayer").noGrad("b").check(), false));
    }

    @Test
    void aWrongWeightGradientIsNamed() {
        CheckResult r = conv("dev.gradcheck.op.WrongConvolution").attr("flaw", "weights").check();
        assertEquals(Status.FAILED, r.status());
        assertEquals(Set.of("W"), rows(r, true));
    }

    /** A graph vertex by its type, fed every input given, in order (docs/dl4j.md#a-graphs-vertices). */
    @Test
    void aGraphVertexIsCheckedForEachInputItIsFed() {
        CheckResult r = GradCheck.ofLayer("ElementWiseVertex").attr("op", "Product").input("a", X.dup())
                .input("b", X.add(1)).check();
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(Set.of("a", "b"), rows(r, false));
    }

    @Test
    void aParameterTheLayerLacksIsInvalidNamingItsParameters() {
        CheckResult r = conv("ConvolutionLayer").wrt("gamma").check();
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().contains("check names 'gamma', which is neither an input nor a parameter of"
                + " ConvolutionLayer (parameters: b, W)"), r.message());
    }

    /**
     * A user's own layer in a jar that is not on the class path (examples/dl4j-custom-layer), by its class or by
     * its name and class loader: the right one passes, the one whose W gradient forgets the activation fails on W.
     */
    @Test
    void aUsersOwnLayerIsCheckedByItsClassOrItsNameAndLoader(@TempDir Path dir) throws Exception {
        Path jar = PluginJars.customLayerJar(dir);
        try (URLClassLoader classes = new URLClassLoader(new URL[] {jar.toUri().toURL()},
                LayerCheckTest.class.getClassLoader())) {
            INDArray x = Nd4j.rand(DataType.DOUBLE, 4, 6).subi(0.5);
            CheckResult right = GradCheck.ofLayer(classes.loadClass("com.example.layers.SwishDense"))
                    .attr("nOut", 5).attr("beta", 1.5).input("x", x).check();
            assertEquals(Status.PASSED, right.status(), right::message);
            assertEquals(Set.of("x", "W", "b"), rows(right, false));
            CheckResult buggy = GradCheck.ofLayer("com.example.layers.SwishDenseBuggy", classes).attr("nOut", 5)
                    .input("x", x).check();
            assertEquals(Status.FAILED, buggy.status(), buggy::message);
            assertEquals(Set.of("W"), rows(buggy, true));
        }
    }
}
