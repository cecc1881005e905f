package dev.gradcheck.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectDirectory;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;

/**
 * The spec engine run as a build tool runs it (EngineTestKit drives the launcher's events): one container per
 * file, one test per spec, each ending as its check did, the checks in worker JVMs.
 */
@Tag("slow") // starts a worker JVM
class GradcheckEngineTest {

    /**
     * A correct gradient, a wrong one (ND4J's gather with a repeated index), the same one expected, an op that does
     * not exist (found in the worker) and a shape that cannot be (found as the file is read).
     */
    static final String SPECS = """
            name: tanh-passes
            op: tanh
            inputs:
              x: {shape: [2, 3]}
            ---
            name: gather-is-wrong
            op: gather
            attrs: {dimensions: [0]}
            inputs:
              x: {shape: [3, 2], init: {values: [[0.5, -1.0], [1.5, 2.0], [-0.5, 0.25]]}}
              indices: {shape: [3], dtype: int32, init: {values: [2, 0, 2]}}
            ---
            name: gather-known-bug
            op: gather
            attrs: {dimensions: [0]}
            inputs:
              x: {shape: [3, 2], init: {values: [[0.5, -1.0], [1.5, 2.0], [-0.5, 0.25]]}}
              indices: {shape: [3], dtype: int32, init: {values: [2, 0, 2]}}
            expect: fail
            reason: gather's backward ignores repeated indices
            ---
            name: no-such-op
            op: tanhh
            inputs:
              x: {shape: [2]}
            ---
            name: bad-shape
            op: tanh
            inputs:
              x: {shape: [-2]}
            """;

    @TempDir
    Path dir;

    @Test
    void eachSpecIsATestThatEndsAsItsCheckDid() throws Exception {
        Path file = dir.resolve("mixed.yaml");
        Files.writeString(file, SPECS);
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .selectors(selectDirectory(dir.toFile())).execute();

        results.containerEvents().assertStatistics(s -> s.started(2).succeeded(2)); // the engine and the file
        results.testEvents().assertStatistics(s -> s.started(4).succeeded(1).failed(3).skipped(1));

        Event passed = results.testEvents().succeeded().list().get(0);
        assertEquals("tanh-passes", passed.getTestDescriptor().getDisplayName());
        FileSource source = (FileSource) passed.getTestDescriptor().getSource().orElseThrow();
        assertEquals(file.toRealPath(), source.getFile().toPath().toRealPath());
        assertEquals(FilePosition.from(1, 1), source.getPosition().orElseThrow());

        Map<String, Throwable> failures = failures(results);
        Throwable wrong = failures.get("gather-is-wrong");
        assertInstanceOf(AssertionFailedError.class, wrong);
        assertTrue(wrong.getMessage().contains("mixed.yaml:6:1: gather-is-wrong [cpu] failed"), wrong.getMessage());
        assertTrue(wrong.getMessage().contains("worst"), wrong.getMessage());
        assertTrue(wrong.getMessage().matches("(?s).*\\d+ / \\d+ entries mismatch.*"), wrong.getMessage());
        Throwable invalid = failures.get("no-such-op");
        assertTrue(invalid.getMessage().contains("mixed.yaml:23:5: unknown op 'tanhh'"), invalid.getMessage());
        Throwable badShape = failures.get("bad-shape");
        assertTrue(badShape.getMessage().startsWith(file + ":30:"), badShape.getMessage());

        Event skipped = results.testEvents().skipped().list().get(0);
        assertEquals("gather-known-bug", skipped.getTestDescriptor().getDisplayName());
        assertEquals("expected fail: gather's backward ignores repeated indices",
                skipped.getPayload(String.class).orElseThrow());
    }

    @Test
    void aSelectedFileThatIsMissingFailsSayingSo() {
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .selectors(selectFile(dir.resolve("absent.yaml").toString())).execute();
        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable problem = failures(results).values().iterator().next();
        assertTrue(problem.getMessage().contains("absent.yaml: no such file or directory"), problem.getMessage());
    }

    @Test
    void aBadSettingFailsTheRunNamingIt() throws Exception {
        Files.writeString(dir.resolve("one.yaml"), "name: t\nop: tanh\ninputs:\n  x: {shape: [2]}\n");
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .configurationParameter(EngineSettings.MODE, "fastest")
                .selectors(selectDirectory(dir.toFile())).execute();
        // one failing test, which every build tool shows (a failed engine root is easy to miss), and no spec run
        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        results.containerEvents().assertStatistics(s -> s.failed(0));
        Throwable problem = failures(results).values().iterator().next();
        assertTrue(problem.getMessage().startsWith("gradcheck: configuration parameter gradcheck.mode=fastest:"
                + " unknown mode"), problem.getMessage());
    }

    @Test
    void aSpecsUniqueIdRunsThatSpecAlone() throws Exception {
        // what an IDE sends to run one test again
        Path file = dir.resolve("two.yaml");
        Files.writeString(file, "name: first\nop: tanh\ninputs:\n  x: {shape: [2]}\n---\n"
                + "name: second\nop: sin\ninputs:\n  x: {shape: [2]}\n");
        UniqueId second = UniqueId.forEngine(GradcheckTestEngine.ID).append(SpecFileDescriptor.SEGMENT,
                file.toAbsolutePath().normalize().toString()).append(SpecTestDescriptor.SEGMENT, "second");
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .selectors(selectUniqueId(second)).execute();
        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
        assertEquals(second, results.testEvents().succeeded().list().get(0).getTestDescriptor().getUniqueId());
    }

    @Test
    void aClasspathResourceSelectsTheSpecFilesUnderIt() {
        // src/test/resources/engine-specs, as a user's @SelectClasspathResource("specs") selects theirs
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .selectors(selectClasspathResource("engine-specs")).execute();
        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
        FileSource source = (FileSource) results.testEvents().succeeded().list().get(0).getTestDescriptor()
                .getSource().orElseThrow();
        // the build's copy in target/test-classes is named by its source, the file one edits
        assertEquals(Path.of("src/test/resources/engine-specs/sin.yaml").toAbsolutePath(), source.getFile().toPath(),
                source.toString());
    }

    @Test
    void aCheckOverItsTimeLimitFailsItsTestAndTheRunGoesOn() throws Exception {
        Files.writeString(dir.resolve("slow.yaml"), """
                name: over-the-limit
                op: matmul
                inputs:
                  a: {shape: [40, 40]}
                  b: {shape: [40, 40]}
                """);
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .configurationParameter(EngineSettings.TIMEOUT, "0.001")
                .selectors(selectDirectory(dir.toFile())).execute();
        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable timeout = failures(results).get("over-the-limit");
        assertInstanceOf(Outcome.CheckError.class, timeout);
        assertTrue(timeout.getMessage().contains("slow.yaml:1:1: over-the-limit [cpu] timeout"), timeout.getMessage());
    }

    /**
     * Layer specs in the engine, checked in a worker JVM: DL4J's convolution passes, a user's layer whose W gradient
     * is wrong (test sources, on the worker's class path) fails naming W, a misspelt option fails at its place.
     */
    @Test
    void layerSpecsAreTestsAsOpSpecsAre() throws Exception {
        Path file = dir.resolve("layers.yaml");
        Files.writeString(file, """
                name: conv-passes
                layer: {type: ConvolutionLayer, nOut: 2, kernelSize: [2, 2], activation: tanh}
                inputs:
                  x: {shape: [1, 2, 4, 4]}
                ---
                name: wrong-conv
                layer: {type: dev.gradcheck.op.WrongConvolution, flaw: weights, nOut: 2, kernelSize: [2, 2]}
                inputs:
                  x: {shape: [1, 2, 4, 4]}
                ---
                name: misspelt
                layer: {type: ConvolutionLayer, nOut: 2, kernalSize: [2, 2]}
                inputs:
                  x: {shape: [1, 2, 4, 4]}
                """);
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .selectors(selectDirectory(dir.toFile())).execute();
        results.testEvents().assertStatistics(s -> s.started(3).succeeded(1).failed(2));
        Map<String, Throwable> failures = failures(results);
        assertTrue(failures.get("wrong-conv").getMessage().contains("dout/dW"), failures.get("wrong-conv")
                .getMessage());
        assertTrue(failures.get("misspelt").getMessage().contains("layers.yaml:12:54: ConvolutionLayer: DL4J cannot"
                + " read unknown option 'kernalSize'"), failures.get("misspelt").getMessage());
    }

    /**
     * A user's own DL4J layer in a jar named by gradcheck.plugins (examples/dl4j-custom-layer): the worker loads
     * it, the right layer's test passes, the buggy one's fails naming W.
     */
    @Test
    void aUsersLayerInThePluginsJarIsATest() throws Exception {
        Path jar = dev.gradcheck.op.plugin.PluginJars.customLayerJar(dir);
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .configurationParameter(EngineSettings.PLUGINS, jar.toString())
                .selectors(selectDirectory(dev.gradcheck.op.plugin.PluginJars.CUSTOM_LAYER_EXAMPLE.resolve("specs")
                        .toFile())).execute();
        results.testEvents().assertStatistics(s -> s.started(2).succeeded(1).failed(1));
        String message = failures(results).get("swish-dense-buggy").getMessage();
        assertTrue(message.contains("dout/dW: mismatch") && !message.contains("dout/dx:"), message);
    }

    /** Network specs in the engine: a right network's test passes, a wrong layer's fails naming that layer. */
    @Test
    void networkSpecsAreTestsAndAWrongLayerFailsItsTest() throws Exception {
        dev.gradcheck.op.SmallNetworks.saved("none", dir.resolve("right.zip"));
        dev.gradcheck.op.SmallNetworks.saved("weights", dir.resolve("wrong.zip"));
        Files.writeString(dir.resolve("networks.yaml"), """
                name: right-network
                network: right.zip
                inputs:
                  x: {shape: [2, 36]}
                ---
                name: wrong-network
                network: wrong.zip
                inputs:
                  x: {shape: [2, 36]}
                """);
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .selectors(selectDirectory(dir.toFile())).execute();
        results.testEvents().assertStatistics(s -> s.started(2).succeeded(1).failed(1));
        String message = failures(results).get("wrong-network").getMessage();
        assertTrue(message.contains("layer 0 (conv1, WrongConvolution) is wrong"), message);
    }

    /**
     * A SameDiff model spec in fast mode (every node's gradient and the whole model's built by SameDiff, which
     * prints "Added differentiated op" on System.out for each): its test passes and nothing reaches the stdout
     * of the build running the engine.
     */
    @Test
    void aSameDiffModelsChatterNeverReachesStdout() throws Exception {
        Files.copy(Path.of("specs/samediff/mlp.fb"), dir.resolve("mlp.fb"));
        Files.writeString(dir.resolve("model.yaml"), "name: mlp\nnetwork: mlp.fb\nmode: fast\ninputs:\n"
                + "  x: {shape: [4, 3]}\n");
        java.io.PrintStream before = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        EngineExecutionResults results;
        try {
            results = EngineTestKit.engine(GradcheckTestEngine.ID).selectors(selectDirectory(dir.toFile())).execute();
        } finally {
            System.setOut(before);
        }
        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
        String out = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(!out.contains("Added differentiated op"), out);
    }

    private static Map<String, Throwable> failures(EngineExecutionResults results) {
        List<Event> failed = results.testEvents().failed().list();
        return failed.stream().collect(java.util.stream.Collectors.toMap(e -> e.getTestDescriptor().getDisplayName(),
                e -> e.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow()));
    }
}
