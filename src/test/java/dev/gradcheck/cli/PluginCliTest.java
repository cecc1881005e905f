package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.cli.options.PluginOptions;
import dev.gradcheck.op.plugin.PluginJars;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example plugin (examples/linear-op) built as its README says, into a temp directory, and checked from the
 * command line: the correct Linear passes, the buggy one fails naming the bias. Plus --plugin's other paths.
 */
class PluginCliTest {

    private static final Path EXAMPLE = Path.of("examples/linear-op");

    @TempDir
    static Path dir;

    static Path exampleJar;
    static Path testJar;

    @BeforeAll
    static void build() throws IOException {
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(EXAMPLE.resolve("src/main/java"))) {
            sources = walk.filter(p -> p.toString().endsWith(".java")).toList();
        }
        Path classes = PluginJars.compile(sources, dir.resolve("example/classes"));
        Path services = EXAMPLE.resolve("src/main/resources/META-INF/services/dev.gradcheck.spi.Operator");
        Files.createDirectories(classes.resolve("META-INF/services"));
        Files.copy(services, classes.resolve("META-INF/services/dev.gradcheck.spi.Operator"));
        exampleJar = PluginJars.jar(classes, dir.resolve("linear-op.jar"));
        testJar = PluginJars.jar(PluginJars.classes(dir.resolve("test"), PluginJars.TEST_OPERATORS,
                PluginJars.TEST_PROVIDERS), dir.resolve("test-ops.jar"));
    }

    @Test
    @Tag("slow") // starts worker JVMs
    void pluginsReachTheWorkerJvms() throws IOException {
        Path dump = dir.resolve("dump");
        Cli r = Cli.runWithWorkers(WorkerOptions.cpu(), "check", "--plugin", exampleJar.toString(),
                EXAMPLE.resolve("specs").toString(), "--format", "json", "--dump", dump.toString());
        assertEquals(1, r.exit(), r.err());
        JsonNode checks = new ObjectMapper().readTree(r.out()).get("checks");
        List<String> statuses = new ArrayList<>();
        checks.forEach(c -> statuses.add(c.get("name").asText() + "=" + c.get("status").asText()));
        assertEquals(List.of("linear-buggy-bias=failed", "linear=passed"), statuses.stream().sorted().toList(),
                "the worker loaded the plugin's operators, the correct and the buggy one");
        // the block's diagnosis and its matrices came back from the worker JVM
        JsonNode manifest = new ObjectMapper().readTree(dump.resolve("manifest.json").toFile());
        assertEquals(1, manifest.get("blocks").size(), manifest.toString());
        assertEquals("b", manifest.get("blocks").get(0).get("input").asText());
        assertTrue(Files.size(dump.resolve(manifest.get("blocks").get(0).get("numerical").asText())) > 8 * 16);
    }

    @Test
    void theBiasBugIsSixOfSixteenEntriesInBatchRowsOneToThree() throws IOException {
        Cli table = Cli.run("check", "--no-color", "--plugin", exampleJar.toString(),
                EXAMPLE.resolve("specs/linear-buggy-bias.yaml").toString());
        assertTrue(table.out().contains("\n    6 / 16 entries mismatch, exactly those at y[1-3, i] / b[i]\n"
                + "    nonzero entries: analytic 2, exactly y[0, i] / b[i]; numerical 8, exactly y[:, i] / b[i]\n"
                + "    worst 3: y[1, 0] / b[0]: analytic 0, numerical 1; y[1, 1] / b[1]: analytic 0, numerical 1;"
                + " y[2, 0] / b[0]: analytic 0, numerical 1\n"), table.out());
        Cli json = Cli.run("check", "--plugin", exampleJar.toString(),
                EXAMPLE.resolve("specs/linear-buggy-bias.yaml").toString(), "--format", "json");
        JsonNode db = null;
        for (JsonNode g : new ObjectMapper().readTree(json.out()).get("checks").get(0).get("gradients")) {
            if (g.get("kind").asText().equals("jacobian") && g.get("input").asText().equals("b")) {
                db = g.get("mismatches");
            }
        }
        assertEquals(6, db.get("count").asInt());
        assertEquals(16, db.get("judged").asInt());
        assertEquals("y[1-3, i] / b[i]", db.get("where").asText());
        assertTrue(db.get("region").get("exact").asBoolean());
        assertEquals(3, db.get("worst").size());
    }

    /** examples/linear-op/README.md shows the table its command prints: rows, detail lines and summary, times aside. */
    @Test
    void theExamplesReadmeShowsWhatItsCommandPrints() throws IOException {
        String readme = Files.readString(EXAMPLE.resolve("README.md"));
        assertTrue(readme.contains("bin/gradcheck check --plugin examples/linear-op/build/linear-op.jar"
                + " examples/linear-op/specs/"), "the README's command");
        java.util.regex.Matcher shown = java.util.regex.Pattern.compile("```\n(STATUS.*?)```",
                java.util.regex.Pattern.DOTALL).matcher(readme);
        assertTrue(shown.find(), "the README's table");
        Cli r = Cli.run("check", "--plugin", exampleJar.toString(), EXAMPLE.resolve("specs").toString(),
                "--color", "never");
        assertEquals(1, r.exit(), r.err());
        assertEquals(withoutTimes(shown.group(1)), withoutTimes(r.out()));
    }

    /** Times vary from run to run (and their width with them): each becomes T, runs of spaces one. */
    private static String withoutTimes(String table) {
        return table.replaceAll("\\d+(\\.\\d+)? (ms|s)\\b", "T").replaceAll(" +", " ").strip();
    }

    @Test
    void theExampleBuggyLinearFailsOnTheBiasAloneAndTheCorrectOnePasses() throws IOException {
        Cli r = Cli.run("check", "--plugin", exampleJar.toString(), EXAMPLE.resolve("specs").toString(),
                "--format", "json");
        assertEquals(1, r.exit(), r.err());
        JsonNode checks = new ObjectMapper().readTree(r.out()).get("checks");
        assertEquals(2, checks.size());
        for (JsonNode c : checks) {
            List<String> failing = new ArrayList<>();
            c.get("gradients").forEach(g -> {
                if (!g.get("verdict").asText().equals("pass")) {
                    failing.add(g.get("input").asText());
                }
            });
            if (c.get("name").asText().equals("linear")) {
                assertEquals("passed", c.get("status").asText(), c.toString());
                long jvpRows = 0;
                for (JsonNode g : c.get("gradients")) {
                    jvpRows += g.get("kind").asText().equals("jvp") ? 1 : 0;
                }
                assertEquals(3, jvpRows, "forward mode checked for x, W and b");
            } else {
                assertEquals("linear-buggy-bias", c.get("name").asText());
                assertEquals("failed", c.get("status").asText(), c.toString());
                assertEquals(List.of("b"), failing, "only the bias gradient is wrong");
            }
        }
    }

    @Test
    void theTableNamesTheWrongInputAndItsWorstElement() {
        Cli r = Cli.run("check", "--no-color", "--plugin", exampleJar.toString(),
                EXAMPLE.resolve("specs/linear-buggy-bias.yaml").toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.out().matches(
                "(?s).*\\n  dy/db: mismatch, .*, worst at y\\[\\d, \\d\\] / b\\[\\d\\]: analytic .*"), r.out());
    }

    @Test
    void withoutThePluginTheSpecIsInvalidAndSaysHowToLoadIt() {
        Cli r = Cli.run("validate", EXAMPLE.resolve("specs/linear.yaml").toString());
        assertEquals(2, r.exit());
        assertTrue(r.out().contains("unknown op 'example_linear'") && r.out().contains("--plugin"), r.out());
        java.util.concurrent.atomic.AtomicInteger engines = new java.util.concurrent.atomic.AtomicInteger();
        Cli loaded = Cli.runWithPlugins((plugins, budget) -> {
            engines.incrementAndGet();
            return dev.gradcheck.backend.BackendFactory.CPU.create(plugins, budget);
        }, "validate", "--plugin", exampleJar.toString(), EXAMPLE.resolve("specs").toString());
        assertEquals(0, loaded.exit(), loaded.out());
        assertEquals(0, engines.get(), "a plugin op's spec is validated without ND4J running: no engine started");
    }

    /** Issue 35 item 7: `new --plugin` was an unknown option; a plugin op's spec is written from its description. */
    @Test
    void newWritesAPluginOpsSpecThatValidates() throws IOException {
        Cli made = Cli.run("new", "test_square", "--plugin", testJar.toString());
        assertEquals(0, made.exit(), made.err());
        assertTrue(made.out().contains("op: test_square") && made.out().contains("# It validates"), made.out());
        Path file = dir.resolve("new-square.yaml");
        Files.writeString(file, made.out());
        Cli validate = Cli.run("validate", file.toString(), "--plugin", testJar.toString());
        assertEquals(0, validate.exit(), validate.out() + validate.err());
        Cli without = Cli.run("new", "test_square");
        assertEquals(2, without.exit());
        assertTrue(without.err().contains("unknown op 'test_square'"), without.err());
    }

    @Test
    void listOpsShowsPluginOpsWithTheirSource() throws IOException {
        Cli r = Cli.run("list-ops", "--plugin", testJar.toString(), "test_s*");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().matches("(?s).*\\ntest_square\\s+-\\s+yes\\s+any scale\\n.*"), r.out());
        assertTrue(r.out().contains("test_square: plugin " + testJar), r.out());
        JsonNode ops = new ObjectMapper().readTree(Cli.run("list-ops", "--json", "--plugin", testJar.toString(),
                "test_square").out());
        assertEquals(1, ops.size());
        assertEquals("plugin " + testJar, ops.get(0).get("source").asText());
        assertEquals("testplugins.Square", ops.get(0).get("class").asText());
    }

    @Test
    void aPluginOperatorErrorExitsThreeAndTheBatchGoesOn() throws IOException {
        Path spec = dir.resolve("errors.yaml");
        Files.writeString(spec, """
                op: test_throws_backward
                inputs: {x: {shape: [3]}}
                ---
                op: test_square
                inputs: {x: {shape: [3]}}
                """);
        Cli r = Cli.run("check", "--no-color", "--plugin", testJar.toString(), spec.toString());
        assertEquals(3, r.exit(), r.out());
        assertTrue(r.out().contains("plugin op 'test_throws_backward'") && r.out().contains("backward exploded"),
                r.out());
        assertTrue(r.out().contains("1 passed"), r.out());
    }

    @Test
    @Tag("slow") // starts worker JVMs
    void brokenPluginsInRealWorkerJvmsEndAsErrorsAndACrashWhileTheBatchGoesOn() throws IOException {
        Path deadlyJar = PluginJars.jar(PluginJars.allClasses(dir.resolve("deadly")), dir.resolve("deadly-ops.jar"));
        Path spec = dir.resolve("broken-plugins.yaml");
        Files.writeString(spec, """
                name: throws
                op: test_throws_backward
                inputs: {x: {shape: [3]}}
                ---
                name: wrong-shape
                op: test_wrong_gradient_shape
                inputs: {x: {shape: [2, 3]}}
                ---
                name: exits
                op: test_exits_forward
                inputs: {x: {shape: [3]}}
                ---
                name: correct
                op: test_square
                inputs: {x: {shape: [3]}}
                """);
        Cli r = Cli.runWithWorkers(WorkerOptions.cpu(), "check", "--plugin", deadlyJar.toString(), spec.toString(),
                "--format", "json");
        assertEquals(3, r.exit(), r.err());
        JsonNode checks = new ObjectMapper().readTree(r.out()).get("checks");
        List<String> statuses = new ArrayList<>();
        checks.forEach(c -> statuses.add(c.get("name").asText() + "=" + c.get("status").asText()));
        assertEquals(List.of("throws=error", "wrong-shape=error", "exits=crashed", "correct=passed"), statuses,
                "System.exit(42) took down only its own worker");
        assertTrue(checks.get(0).get("message").asText().contains("plugin op 'test_throws_backward'"),
                checks.get(0).toString());
        assertTrue(checks.get(1).get("message").asText().contains("backward returned a gradient of shape [6]"),
                checks.get(1).toString());
        assertTrue(checks.get(2).get("message").asText().startsWith("worker crashed: exited with status 42"),
                checks.get(2).toString());
    }

    @Test
    void aPluginWhoseMetadataThrowsIsAUsageErrorForListOps() throws IOException {
        Path broken = PluginJars.classes(dir.resolve("bad-meta"), java.util.Map.of("testplugins/BadMeta.java", """
                package testplugins;
                import java.util.List;
import java.util.concurrent.TimeUnit;
                public class BadMeta extends Square {
                    public List<String> inputNames() { throw new IllegalStateException("no inputs"); }
                }
                """, "testplugins/Square.java", PluginJars.TEST_OPERATORS.get("testplugins/Square.java")),
                List.of("testplugins.BadMeta"));
        Cli r = Cli.run("list-ops", "--plugin", broken.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("gradcheck: plugin op 'test_square' (from " + broken + "): inputNames() threw "
                + "java.lang.IllegalStateException: no inputs"), r.err());
    }

    @Test
    void aMissingPluginPathIsAUsageError() {
        Cli r = Cli.run("check", "--plugin", dir.resolve("nope.jar").toString(), EXAMPLE.resolve("specs").toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("gradcheck: plugin path " + dir.resolve("nope.jar").toAbsolutePath()
                + ": no such file or directory"), r.err());
        assertEquals("", r.out(), "nothing was checked");
    }

    @Test
    void aNameClashIsAUsageErrorNamingBothSources() {
        Path copy = dir.resolve("copy-of-test-ops.jar");
        try {
            Files.copy(testJar, copy);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Cli r = Cli.run("list-ops", "--plugin", testJar.toString(), "--plugin", copy.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("plugin op 'test_square' is defined twice") && r.err().contains(testJar.toString())
                && r.err().contains(copy.toString()), r.err());
    }

    @Test
    void thePluginPathVariableComesBeforeTheFlagsAndSkipsEmptyEntries() {
        assertEquals(List.of(Path.of("/a.jar"), Path.of("/b"), Path.of("c.jar")),
                PluginOptions.paths("/a.jar::/b", List.of(Path.of("c.jar"))));
        assertEquals(List.of(), PluginOptions.paths(null, List.of()));
    }

    /*
     * Plugins that misbehave while loading (issue 27, defect 9). Loading happens in the front end, before any worker
     * starts; an exit there ends the JVM, so these run the real front end in a JVM of its own.
     */

    @Test
    @Tag("slow") // starts a front-end JVM
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aPluginThatCallsSystemExitWhileLoadingIsAUsageErrorNamingIt() throws Exception {
        Path jar = PluginJars.loadingJar(dir.resolve("loading"), "testplugins.ExitsOnLoad");
        Cli r = frontEnd("check", "--plugin", jar.toString(), tanhSpec().toString());
        assertEquals(2, r.exit(), "exit 0 before, with nothing said; stderr: " + r.err());
        assertEquals("", r.out(), "stdout is for reports");
        assertTrue(r.err().startsWith("gradcheck: plugin testplugins.ExitsOnLoad (from " + jar.toAbsolutePath()
                + ") called System.exit while loading (in testplugins.ExitsOnLoad.<init>): a plugin must not end"
                + " the run"), r.err());
    }

    @Test
    @Tag("slow") // starts a front-end JVM
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a hang guard: the run used to wait for the constructor forever
    void aPluginThatHangsWhileLoadingIsAUsageErrorOnceTheTimeoutIsPastAndTheJvmExits() throws Exception {
        Path jar = PluginJars.loadingJar(dir.resolve("loading"), "testplugins.HangsOnLoad");
        Cli r = frontEnd("check", "--timeout", "1", "--plugin", jar.toString(), tanhSpec().toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("gradcheck: plugin testplugins.HangsOnLoad (from " + jar.toAbsolutePath()
                + ") did not finish loading within 1 s: its constructor or its metadata"), r.err());
    }

    /**
     * A plugin that exits only in a worker JVM passes the front end's load; the worker's load is guarded as its
     * checks are: the worker's death is the check's CRASHED (exit 3), never exit 0.
     */
    @Test
    @Tag("slow") // starts worker JVMs
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aPluginThatExitsWhileAWorkerLoadsItCrashesTheCheck() throws Exception {
        Path jar = PluginJars.loadingJar(dir.resolve("loading"), "testplugins.ExitsInWorker");
        Cli r = Cli.runWithWorkers(WorkerOptions.cpu(), "check", "--plugin", jar.toString(),
                tanhSpec().toString(), "--format", "json");
        assertEquals(3, r.exit(), r.err());
        JsonNode check = new ObjectMapper().readTree(r.out()).get("checks").get(0);
        assertEquals("crashed", check.get("status").asText(), check.toString());
    }

    private static Path tanhSpec() throws IOException {
        Path file = dir.resolve("tanh.yaml");
        Files.writeString(file, CheckCommandTest.TANH);
        return file;
    }

    /** The real front end in a JVM of its own; a run still going after 90 s fails the test (and is killed). */
    private static Cli frontEnd(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), TestFrontEnd.class.getName()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process front = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            assertTrue(front.waitFor(90, TimeUnit.SECONDS), "still running after 90 s: " + Files.readString(err));
            return new Cli(front.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            front.destroyForcibly();
        }
    }
}
