package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.cli.options.Project;
import dev.gradcheck.cli.options.SelectionOptions;
import dev.gradcheck.cli.options.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gradcheck.yaml: found in the working directory or above it (its directory is the project root), or named with
 * --config; its command sections give option defaults that the command line overrides; its errors have positions;
 * --help says where it was found.
 */
class ProjectFileTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path root;

    private Workspace below;

    @BeforeEach
    void project() throws IOException {
        Path specs = Files.createDirectories(root.resolve("specs"));
        Files.writeString(specs.resolve("a.yaml"), """
                name: a-tanh
                op: tanh
                inputs: {x: {shape: [2]}}
                ---
                name: b-sigmoid
                op: sigmoid
                inputs: {x: {shape: [2]}}
                """);
        below = Workspace.at(Files.createDirectories(root.resolve("deep/down")), Map.of());
    }

    private void projectFile(String yaml) throws IOException {
        Files.writeString(root.resolve("gradcheck.yaml"), yaml);
    }

    private static List<String> names(String json) throws IOException {
        List<String> names = new ArrayList<>();
        JSON.readTree(json).get("checks").forEach(c -> names.add(c.get("name").asText()));
        return names;
    }

    @Test
    void theNearestProjectFileGivesPathsAndDefaultsAndTheCommandLineWins() throws IOException {
        projectFile("""
                paths: [specs]
                check:
                  format: json
                  only: ['a-*', 'zzz']
                  cache-dir: .cache
                """);
        Cli r = Cli.runIn(below, "check");
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("a-tanh"), names(r.out()));
        JsonNode ids = JSON.readTree(r.out()).at("/checks/0/id");
        assertTrue(ids.asText().endsWith("specs/a.yaml::a-tanh"), ids.asText());

        Cli overridden = Cli.runIn(below, "check", "--only", "b-*", "--format", "json");
        assertEquals(List.of("b-sigmoid"), names(overridden.out()), "a list option is replaced, not extended");
        Cli table = Cli.runIn(below, "check", "--format", "table");
        assertTrue(table.out().startsWith("STATUS"), table.out());

        Cli validate = Cli.runIn(below, "validate");
        assertEquals(0, validate.exit(), validate.err());
        assertTrue(validate.out().contains("2 specs: 2 valid"), validate.out());
    }

    @Test
    void pathsInTheFileAreRelativeToTheRootAndTheEnvironmentBeatsItsCacheDir() throws IOException {
        projectFile("paths: [specs]\ncheck: {cache-dir: .cache}\n");
        Workspace noEnv = Workspace.at(below.workingDirectory(), java.util.Collections.singletonMap(
                SelectionOptions.CACHE_ENV, null));
        assertEquals(0, Cli.runIn(noEnv, "check", "--only", "a-*").exit());
        assertTrue(Files.isRegularFile(root.resolve(".cache/durations.json")), "cache-dir resolved against the root");

        Path env = root.resolve("env-cache");
        assertEquals(0, Cli.runIn(Workspace.at(below.workingDirectory(), Map.of(SelectionOptions.CACHE_ENV,
                env.toString())), "check", "--only", "a-*").exit());
        assertTrue(Files.isRegularFile(env.resolve("durations.json")), "$GRADCHECK_CACHE_DIR wins over the file");
    }

    @Test
    void configNamesAnotherFileWhoseDirectoryIsTheRoot() throws IOException {
        Path other = Files.createDirectories(root.resolve("ci"));
        Files.writeString(other.resolve("nightly.yaml"), "paths: [../specs]\ncheck: {only: [b-*], format: json}\n");
        Cli r = Cli.runIn(below, "check", "--config", other.resolve("nightly.yaml").toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("b-sigmoid"), names(r.out()));
    }

    @Test
    void errorsInTheFileHavePositionsAndNothingRuns() throws IOException {
        projectFile("""
                paths: [specs]
                check:
                  jbos: 2
                  timeout: soon
                  fail-fast: maybe
                  format: [json, table]
                chek: {}
                """);
        Cli r = Cli.runIn(below, "check");
        assertEquals(2, r.exit());
        String file = root.resolve("gradcheck.yaml").toString();
        assertTrue(r.err().contains(file + ":3:3: unknown option 'jbos' for check (did you mean 'jobs'?)"), r.err());
        assertTrue(r.err().contains(file + ":4:12: timeout: Invalid value for 'timeout': 'soon' is not a double"),
                r.err());
        assertTrue(r.err().contains(file + ":5:14: fail-fast: expected true or false, got 'maybe'"), r.err());
        assertTrue(r.err().contains(file + ":6:11: format: expected one value, got a list"), r.err());
        assertTrue(r.err().contains(file + ":7:1: unknown key 'chek' (did you mean 'check'?)"), r.err());
        assertFalse(r.out().contains("checks"), "nothing ran: " + r.out());

        projectFile("check: {jobs: [1\n");
        Cli syntax = Cli.runIn(below, "check", "specs");
        assertEquals(2, syntax.exit());
        assertTrue(syntax.err().matches("(?s).*gradcheck\\.yaml:\\d+:\\d+: YAML syntax error.*"), syntax.err());

        projectFile("plugins: [missing.jar]\n");
        Cli plugin = Cli.runIn(below, "check", root.resolve("specs").toString());
        assertEquals(2, plugin.exit());
        assertTrue(plugin.err().contains(root.resolve("missing.jar").toString()), plugin.err());
    }

    @Test
    void helpSaysWhereTheProjectFileIs() throws IOException {
        Cli none = Cli.runIn(below, "check", "--help");
        assertTrue(none.out().replace("\n", " ").contains("Project file: none (no gradcheck.yaml in "
                + below.workingDirectory() + " or above it)"), none.out());
        projectFile("paths: [specs]\n");
        Cli found = Cli.runIn(below, "check", "--help");
        assertTrue(found.out().replace("\n", " ").contains("Project file: " + root.resolve("gradcheck.yaml")
                + "; project root " + root + "."), found.out());
        Cli merge = Cli.runIn(below, "merge", "--help");
        assertTrue(merge.out().contains("Project file: "), merge.out());
    }

    @Test
    void noPathAndNoProjectPathsIsAUsageError() {
        Cli r = Cli.runIn(below, "check");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("no PATH given, and no paths: in a project file"), r.err());
    }

    @Test
    void aNegativeTimeoutInTheFileIsRefusedAtItsPosition() throws IOException {
        projectFile("""
                paths: [specs]
                check: {timeout: -5}
                """);
        Cli r = Cli.runIn(below, "check");
        assertEquals(2, r.exit(), r.err());
        String file = root.resolve("gradcheck.yaml").toString();
        assertTrue(r.err().contains(file + ":2:18: timeout: Invalid value for 'timeout': must be between 0.001 and"
                + " 1000000 seconds, got -5"), r.err());
    }

    @Test
    void eachNumberOutOfItsRangeInTheFileIsRefusedAtItsPosition() throws IOException {
        String file = root.resolve("gradcheck.yaml").toString();
        String[][] cases = {
            {"jobs: 0", ":2:15: jobs: Invalid value for 'jobs': must be between 1 and 256, got 0"},
            {"durations: -1", ":2:20: durations: Invalid value for 'durations': must be 0 or more, got -1"},
            {"order: 3", ":2:16: order: Invalid value for 'order': must be 1 or 2, got 3"},
            {"threads: 0", ":2:18: threads: Invalid value for 'threads': must be between 1 and 64, got 0"},
            {"max_elements: 0", ":2:23: max_elements: Invalid value for 'max_elements': must be a positive integer,"
                    + " got 0"},
            {"nondet_tol: -1", ":2:21: nondet_tol: Invalid value for 'nondet_tol': must be finite and >= 0, got -1"}};
        for (String[] c : cases) {
            projectFile("paths: [specs]\ncheck: {" + c[0] + "}\n");
            Cli r = Cli.runIn(below, "check");
            assertEquals(2, r.exit(), c[0] + ": " + r.err());
            assertTrue(r.err().contains(file + c[1]), c[0] + ": " + r.err());
        }
    }

    @Test
    void aDeviceAsTheProjectFileIsOneLineAndExitTwoNotAnOutOfMemoryTrace() {
        Cli r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Cli.runIn(below, "check", "--config",
                "/dev/zero", "specs"));
        assertEquals(2, r.exit(), r.err());
        assertEquals("gradcheck: /dev/zero:1:1: cannot read the project file: not a regular file (a character device);"
                + " only regular files are read as project files, this one was not read", r.err().strip());
        assertEquals("", r.out());
    }

    @Test
    void aProjectFileOverOneMebibyteIsRefusedUnread() throws IOException {
        projectFile("paths: [specs]\n" + "#".repeat(1 << 20) + "\n");
        Cli r = Cli.runIn(below, "check");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("cannot read the project file: larger than 1024 KiB"), r.err());
    }

    /** A FIFO blocks whoever opens it until a writer comes: found or named, it is refused by name, unopened. */
    @Test
    void aFifoAsTheProjectFileIsRefusedNotWaitedOn() throws Exception {
        Path fifo = root.resolve("gradcheck.yaml");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Cli found = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Cli.runIn(below, "check", "specs"));
        assertEquals(2, found.exit(), found.err());
        assertTrue(found.err().contains(fifo + ":1:1: cannot read the project file: not a regular file (a FIFO)"),
                found.err());
        Cli named = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Cli.runIn(below, "check", "--config",
                fifo.toString(), "specs"));
        assertEquals(2, named.exit(), named.err());
        assertTrue(named.err().contains("not a regular file (a FIFO)"), named.err());
    }
}
