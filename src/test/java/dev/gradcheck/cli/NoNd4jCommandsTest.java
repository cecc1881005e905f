package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * list-ops, coverage, validate --static (and validate of specs that fail the catalog's checks) and --help start
 * no ND4J: each runs in a child JVM whose class path has no ND4J or javacpp jar at all, so touching a single ND4J
 * class would fail the command (NoClassDefFoundError). The last test shows that it would: validate of a graph
 * spec, which runs its nodes, fails there.
 */
@Tag("slow") // a JVM per command
class NoNd4jCommandsTest {

    @TempDir
    static Path dir;

    private static Path oneOps;
    private static Path graphs;

    @BeforeAll
    static void specs() throws IOException {
        oneOps = Files.createDirectories(dir.resolve("one-op"));
        Files.writeString(oneOps.resolve("ok.yaml"), "name: t\nop: tanh\ninputs:\n  x: {shape: [3]}\n---\n"
                + "name: s\nop: softmax\nattrs: {dimension: 1}\ninputs:\n  x: {shape: [2, 3]}\n");
        Files.writeString(oneOps.resolve("typo.yaml"), "name: bad\nop: softmax\nattrs: {dimensoin: 1}\n"
                + "inputs:\n  x: {shape: [2, 3]}\n");
        graphs = Files.createDirectories(dir.resolve("graph"));
        Files.writeString(graphs.resolve("g.yaml"), """
                name: g
                graph:
                  - {op: tanh, in: [x], out: y}
                  - {op: softmax, in: [y], out: z, attrs: {dimension: 1}}
                inputs:
                  x: {shape: [2, 3]}
                output: z
                """);
    }

    /** This JVM's class path without ND4J's artifacts (org.nd4j) and javacpp's (org.bytedeco). */
    private static String classPathWithoutNd4j() {
        List<String> kept = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(p -> !p.replace('\\', '/').matches(".*/org/(nd4j|bytedeco)/.*")
                        && !Path.of(p).getFileName().toString().matches("(nd4j|javacpp|openblas).*"))
                .toList();
        assertTrue(kept.stream().anyMatch(p -> p.contains("picocli")), "the rest stays: " + kept);
        return String.join(File.pathSeparator, kept);
    }

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-cp", classPathWithoutNd4j(), Main.class.getName()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        int exit = p.waitFor();
        return new Run(exit, Files.readString(out), Files.readString(err));
    }

    @Test
    void listOpsNeedsNoNd4j() throws Exception {
        Run r = run("list-ops", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode ops = new ObjectMapper().readTree(r.out());
        assertTrue(ops.size() > 300, "ND4J's ops, from the build's catalog: " + ops.size());
        JsonNode softmax = null;
        for (JsonNode o : ops) {
            if (o.get("name").asText().equals("softmax")) {
                softmax = o;
            }
        }
        assertTrue(softmax != null && softmax.get("bp_kernel").asBoolean(), String.valueOf(softmax));
    }

    @Test
    void coverageNeedsNoNd4j() throws Exception {
        Run r = run("coverage", oneOps.toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertTrue(root.get("ops_with_backward").asInt() > 100, r.out());
        assertEquals(2, root.get("covered").asInt(), "tanh and softmax: " + r.out());
    }

    @Test
    void validateStaticOfOneOpSpecsNeedsNoNd4jAndStillFindsAttributeTypos() throws Exception {
        Run r = run("validate", "--static", oneOps.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("typo.yaml:3:20: unknown attribute 'dimensoin' for op softmax (did you mean"
                + " 'dimension'?)"), r.out());
        assertTrue(r.out().contains("3 specs: 2 valid, 1 invalid"), r.out());
    }

    /** Specs that fail the checks against the catalog never reach the worker, so validate starts none for them. */
    @Test
    void validateOfSpecsThatFailTheCatalogChecksNeedsNoNd4j() throws Exception {
        Run r = run("validate", oneOps.resolve("typo.yaml").toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("typo.yaml:3:20: unknown attribute 'dimensoin'"), r.out());
        assertTrue(r.out().contains("1 spec: 0 valid, 1 invalid"), r.out());
        assertFalse(r.err().contains("org/nd4j") || r.out().contains("org/nd4j"), r.out() + r.err());
    }

    @Test
    void validateStaticNeedsNoNd4jEvenForGraphs() throws Exception {
        Run r = run("validate", "--static", graphs.toString(), oneOps.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("4 specs: 3 valid, 1 invalid"), r.out());
    }

    @Test
    void helpNeedsNoNd4j() throws Exception {
        for (String[] args : new String[][] {{"--help"}, {"check", "--help"}, {"--version"}}) {
            Run r = run(args);
            assertEquals(0, r.exit(), r.err());
            assertFalse(r.out().isBlank());
        }
    }

    /** The control: a graph's shapes are found by running its nodes, which needs ND4J, so here it must fail. */
    @Test
    void validateOfAGraphRunsNd4jSoWithoutItFails() throws Exception {
        Run r = run("validate", graphs.toString());
        assertNotEquals(0, r.exit());
        assertTrue(r.err().contains("org/nd4j") || r.out().contains("org/nd4j"), r.out() + r.err());
    }

    @Test
    void theClassPathReallyLacksNd4j() {
        String cp = classPathWithoutNd4j();
        assertFalse(Arrays.stream(cp.split(File.pathSeparator)).anyMatch(p -> p.contains("nd4j")),
                Arrays.stream(cp.split(File.pathSeparator)).collect(Collectors.joining("\n")));
    }
}
