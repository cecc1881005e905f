package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.op.plugin.PluginJars;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example of a user's own DL4J layer (examples/dl4j-custom-layer) built as its README says, into a temp jar,
 * and checked from the command line with --plugin: the right layer passes, the buggy one fails naming W alone,
 * in this JVM and in the worker JVMs, which load the jar again.
 */
class CustomLayerCliTest {

    private static final Path EXAMPLE = PluginJars.CUSTOM_LAYER_EXAMPLE;

    @TempDir
    static Path dir;

    static Path jar;

    @BeforeAll
    static void build() throws IOException {
        jar = PluginJars.customLayerJar(dir);
    }

    /** Each check's status, and the inputs whose gradient rows did not pass. */
    private static Map<String, String> outcomes(Cli r) throws IOException {
        Map<String, String> outcomes = new TreeMap<>();
        for (JsonNode c : new ObjectMapper().readTree(r.out()).get("checks")) {
            StringBuilder failing = new StringBuilder();
            c.get("gradients").forEach(g -> failing.append(g.get("verdict").asText().equals("pass") ? ""
                    : " " + g.get("kind").asText() + ":" + g.get("input").asText()));
            outcomes.put(c.get("name").asText(), c.get("status").asText() + failing);
        }
        return outcomes;
    }

    private static final Map<String, String> EXPECTED = Map.of("swish-dense", "passed",
            "swish-dense-buggy", "failed jacobian:W");

    @Test
    void theRightLayerPassesAndTheBuggyOneFailsOnWAlone() throws IOException {
        Cli r = Cli.run("check", "--plugin", jar.toString(), EXAMPLE.resolve("specs").toString(), "--format",
                "json");
        assertEquals(1, r.exit(), r.err());
        assertEquals(new TreeMap<>(EXPECTED), outcomes(r));
    }

    @Test
    @Tag("slow") // starts worker JVMs
    void theWorkersLoadTheLayersFromThePluginJar() throws IOException {
        Cli r = Cli.runWithWorkers(WorkerOptions.cpu(), "check", "--plugin", jar.toString(),
                EXAMPLE.resolve("specs").toString(), "--format", "json");
        assertEquals(1, r.exit(), r.err());
        assertEquals(new TreeMap<>(EXPECTED), outcomes(r));
    }

    @Test
    void withoutThePluginTheSpecIsInvalidAndSaysHowToLoadIt() {
        Cli r = Cli.run("validate", EXAMPLE.resolve("specs/swish-dense.yaml").toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("unknown DL4J layer 'com.example.layers.SwishDense'")
                && r.out().contains("--plugin"), r.out());
        Cli loaded = Cli.run("validate", "--plugin", jar.toString(), EXAMPLE.resolve("specs").toString());
        assertEquals(0, loaded.exit(), loaded.out() + loaded.err());
    }

    /**
     * `new` writes a user's layer's spec by its class name, judged by DL4J with the jar loaded: the class was found
     * (DL4J built it, and its initializer refuses the layer without nOut), not "unknown".
     */
    @Test
    void newWritesAUsersLayersSpecFromItsClassName() {
        Cli made = Cli.run("new", "com.example.layers.SwishDense", "--plugin", jar.toString(), "--shape", "3,6");
        assertEquals(0, made.exit(), made.err());
        assertTrue(made.out().contains("layer: {type: com.example.layers.SwishDense}\ninputs:\n  x: {shape: [3, 6]}"),
                made.out());
        assertTrue(made.out().contains("DL4J refused it: new.yaml:2:15: DL4J refuses com.example.layers.SwishDense on"
                + " an input of shape [3, 6]"), made.out());
    }

    /** examples/dl4j-custom-layer/README.md shows the table its command prints, times aside. */
    @Test
    void theExamplesReadmeShowsWhatItsCommandPrints() throws IOException {
        String readme = Files.readString(EXAMPLE.resolve("README.md"));
        assertTrue(readme.contains("bin/gradcheck check --plugin examples/dl4j-custom-layer/build/"
                + "dl4j-custom-layer.jar examples/dl4j-custom-layer/specs/"), "the README's command");
        java.util.regex.Matcher shown = java.util.regex.Pattern.compile("```\n(STATUS.*?)```",
                java.util.regex.Pattern.DOTALL).matcher(readme);
        assertTrue(shown.find(), "the README's table");
        Cli r = Cli.run("check", "--plugin", jar.toString(), EXAMPLE.resolve("specs").toString(), "--color",
                "never");
        assertEquals(1, r.exit(), r.err());
        assertEquals(withoutTimes(shown.group(1)), withoutTimes(r.out()));
    }

    private static String withoutTimes(String table) {
        return table.replaceAll("\\d+(\\.\\d+)? (ms|s)\\b", "T").replaceAll(" +", " ").strip();
    }
}
