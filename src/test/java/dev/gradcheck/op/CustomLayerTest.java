package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.backend.CheckRequest;
import dev.gradcheck.backend.nd4j.InProcessBackend;
import dev.gradcheck.op.plugin.PluginException;
import dev.gradcheck.op.plugin.PluginJars;
import dev.gradcheck.op.plugin.PluginLoader;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.SpecLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own DL4J layer (examples/dl4j-custom-layer: a configuration class and its implementation with a
 * hand-written backward), in a jar of its own loaded as a plugin path: the right layer passes on its input and
 * both parameters, the one whose weight gradient forgets the activation's derivative fails naming W alone.
 */
class CustomLayerTest {

    @TempDir
    static Path dir;

    static PluginSet plugins;

    @BeforeAll
    static void build() throws IOException, PluginException {
        plugins = PluginLoader.load(List.of(PluginJars.customLayerJar(dir)));
    }

    private static final String SPEC = """
            name: swish
            layer: {type: com.example.layers.%s, nOut: 5, beta: 1.5}
            inputs:
              x: {shape: [4, 6]}
            %s
            """;

    static CheckResult check(PluginSet with, String yaml) {
        try (InProcessBackend backend = InProcessBackend.withPlugins(Engine.CPU, with, MemoryBudget.UNLIMITED)) {
            var loaded = new SpecLoader().loadText("swish.yaml", "swish", yaml).get(0);
            assertTrue(loaded.isValid(), () -> "spec invalid: " + loaded.errors());
            return backend.run(CheckRequest.of(loaded.spec()));
        }
    }

    private static Set<String> jacobians(CheckResult r, boolean failingOnly) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN || g.kind() == CheckKind.FAST)
                .filter(g -> !failingOnly || g.verdict() != Verdict.PASS).map(GradientResult::input)
                .collect(Collectors.toSet());
    }

    @ParameterizedTest
    @ValueSource(strings = {"full", "fast"})
    void theRightCustomLayerPassesOnItsInputAndBothParameters(String mode) {
        CheckResult r = check(plugins, SPEC.formatted("SwishDense", "mode: " + mode));
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(Set.of("x", "W", "b"), jacobians(r, false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"full", "fast"})
    void aWeightGradientThatForgetsTheActivationFailsNamingW(String mode) {
        CheckResult r = check(plugins, SPEC.formatted("SwishDenseBuggy", "mode: " + mode));
        assertEquals(Status.FAILED, r.status(), r::message);
        assertEquals(Set.of("W"), jacobians(r, true));
    }

    @Test
    void theLayersOwnOptionIsReadThroughDl4jsJson() {
        CheckResult typo = check(plugins, SPEC.formatted("SwishDense", "").replace("beta:", "betta:"));
        assertEquals(Status.INVALID, typo.status());
        assertTrue(typo.message().contains("unknown option 'betta' (did you mean 'beta'?)"), typo.message());
    }

    @Test
    void withoutItsPluginPathTheLayerIsUnknownSayingHowToLoadIt() {
        CheckResult r = check(PluginSet.EMPTY, SPEC.formatted("SwishDense", ""));
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().startsWith("swish.yaml:2:15: unknown DL4J layer 'com.example.layers.SwishDense': no"
                + " such class on gradcheck's class path (a user's layer is loaded with --plugin JAR)"), r.message());
    }

    /**
     * A network whose configuration names a user's layer (a dense layer, then SwishDenseBuggy from the jar), saved
     * as JSON: loaded through the plugin paths, the user's layer is the one named wrong. (Without them DL4J cannot
     * read it in a fresh JVM; in this one, DL4J's shared mapper remembers the class once it has read it.)
     */
    @Test
    void aNetworkHoldingAUsersLayerIsLoadedThroughThePluginPaths() throws Exception {
        org.deeplearning4j.nn.conf.layers.FeedForwardLayer swish = (org.deeplearning4j.nn.conf.layers.FeedForwardLayer)
                plugins.classLoader().loadClass("com.example.layers.SwishDenseBuggy").getConstructor().newInstance();
        swish.setNOut(3);
        swish.setLayerName("swish");
        String json = new org.deeplearning4j.nn.conf.NeuralNetConfiguration.Builder().seed(5)
                .dataType(org.nd4j.linalg.api.buffer.DataType.DOUBLE).list()
                .layer(new org.deeplearning4j.nn.conf.layers.DenseLayer.Builder().name("fc").nOut(4)
                        .activation(org.nd4j.linalg.activations.Activation.TANH).build())
                .layer(swish).setInputType(org.deeplearning4j.nn.conf.inputs.InputType.feedForward(5)).build()
                .toJson();
        java.nio.file.Files.writeString(dir.resolve("swish-net.json"), json);
        String spec = "name: net\nnetwork: swish-net.json\ninputs:\n  x: {shape: [3, 5]}\n";
        CheckResult r = checkFile(plugins, spec);
        assertEquals(Status.FAILED, r.status(), r::message);
        assertTrue(r.message().startsWith("layer 1 (swish, SwishDenseBuggy) is wrong"), r.message());
        assertEquals(List.of(Status.PASSED, Status.FAILED), r.nodes().stream().map(n -> n.status()).toList());
    }

    private static CheckResult checkFile(PluginSet with, String yaml) throws IOException {
        Path file = dir.resolve("net.yaml");
        java.nio.file.Files.writeString(file, yaml);
        try (InProcessBackend backend = InProcessBackend.withPlugins(Engine.CPU, with, MemoryBudget.UNLIMITED)) {
            var loaded = new SpecLoader().loadText(file.toString(), "net", yaml).get(0);
            assertTrue(loaded.isValid(), () -> "spec invalid: " + loaded.errors());
            return backend.run(CheckRequest.of(loaded.spec()));
        }
    }
}
