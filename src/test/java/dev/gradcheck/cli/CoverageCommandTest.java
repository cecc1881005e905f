package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** gradcheck coverage over a small specs directory: tanh covered twice, softmax not at all. */
class CoverageCommandTest {

    @TempDir
    Path dir;

    private void twoTanhSpecs() throws IOException {
        Files.writeString(dir.resolve("tanh.yaml"), "name: a\nop: tanh\ninputs:\n  x: {shape: [2]}\n---\n"
                + "name: b\nop: tanh\ninputs:\n  x: {shape: [3]}\n");
        Files.writeString(dir.resolve("broken.yaml"), "op: softmax\ninputs: 3\n"); // invalid: not counted
    }

    @Test
    void jsonCountsSpecsPerOpAndThePercentage() throws IOException {
        twoTanhSpecs();
        Cli r = Cli.run("coverage", dir.toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode root = new ObjectMapper().readTree(r.out());
        Map<String, JsonNode> ops = new HashMap<>();
        root.get("ops").forEach(o -> ops.put(o.get("name").asText(), o));
        int total = root.get("ops_with_backward").asInt();
        assertEquals(total, ops.size());
        assertTrue(total > 100, "ND4J has hundreds of differentiable ops: " + total);
        assertEquals(2, ops.get("tanh").get("specs").asInt());
        assertEquals(0, ops.get("softmax").get("specs").asInt());
        assertTrue(ops.get("softmax").get("bp_kernel").asBoolean());
        assertTrue(ops.get("tanh").get("bp_kernel").asBoolean());
        assertFalse(ops.get("cos").get("bp_kernel").asBoolean(), "cos is listed for its doDiff alone");
        assertEquals(1, root.get("covered").asInt());
        assertEquals(Math.round(1000.0 / total) / 10.0, root.get("percent").asDouble(), 1e-9);
        assertTrue(r.err().contains("1 invalid spec(s) not counted"), r.err());
    }

    @Test
    void aGraphSpecCountsForEachOfItsOps() throws IOException {
        twoTanhSpecs();
        Files.writeString(dir.resolve("graph.yaml"), """
                name: g
                graph:
                  - {op: softmax, in: [x], out: s, attrs: {dimension: 1}}
                  - {op: tanh, in: [s], out: t}
                  - {op: tanh, in: [t], out: y}
                inputs:
                  x: {shape: [2, 3]}
                """);
        Cli r = Cli.run("coverage", dir.toString(), "--json");
        JsonNode root = new ObjectMapper().readTree(r.out());
        Map<String, Integer> specs = new HashMap<>();
        root.get("ops").forEach(o -> specs.put(o.get("name").asText(), o.get("specs").asInt()));
        assertEquals(3, specs.get("tanh"), "two tanh specs and one graph using tanh twice");
        assertEquals(1, specs.get("softmax"));
        assertFalse(specs.containsKey("graph"));
    }

    @Test
    void passingCountsOnlySpecsExpectedToPassAndVerifiedNeedsOne() throws IOException {
        twoTanhSpecs();
        Files.writeString(dir.resolve("known-bugs.yaml"), "name: c\nop: tanh\ninputs:\n  x: {shape: [2]}\n"
                + "expect: fail\nreason: a recorded bug\n---\n"
                + "name: d\nop: softmax\ninputs:\n  x: {shape: [2, 3]}\nexpect: error\nreason: another\n");
        JsonNode root = new ObjectMapper().readTree(Cli.run("coverage", dir.toString(), "--json").out());
        Map<String, JsonNode> ops = new HashMap<>();
        root.get("ops").forEach(o -> ops.put(o.get("name").asText(), o));
        assertEquals(3, ops.get("tanh").get("specs").asInt());
        assertEquals(2, ops.get("tanh").get("passing").asInt(), "the expect: fail spec is not a passing one");
        assertEquals(1, ops.get("softmax").get("specs").asInt());
        assertEquals(0, ops.get("softmax").get("passing").asInt());
        assertEquals(2, root.get("covered").asInt(), "a known bug still covers its op");
        assertEquals(1, root.get("verified").asInt(), "softmax has no spec expected to pass");
        Cli table = Cli.run("coverage", dir.toString());
        assertTrue(table.out().matches("(?s).*\\ntanh\\s+bp kernel\\s+3\\s+2\\n.*"), table.out());
        assertTrue(table.out().contains(": 2 covered by specs ("), table.out());
        assertTrue(table.out().contains("), 1 verified by a passing spec, "), table.out());
    }

    @Test
    void aSpecNamingAnUnknownOpIsReportedWithItsPositionAndNotCounted() throws IOException {
        twoTanhSpecs();
        Files.writeString(dir.resolve("typo.yaml"), "name: t\nop: nosuchop\ninputs:\n  x: {shape: [2]}\n");
        Files.writeString(dir.resolve("graph.yaml"), """
                name: g
                graph:
                  - {op: tanh, in: [x], out: t}
                  - {op: softmx, in: [t], out: y}
                inputs:
                  x: {shape: [2, 3]}
                """);
        Cli r = Cli.run("coverage", dir.toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("typo.yaml:2:5: unknown op 'nosuchop'; spec 't' not counted"), r.err());
        assertTrue(r.err().contains("graph.yaml:4:10: unknown op 'softmx' (did you mean 'softmax'?)"), r.err());
        Map<String, Integer> specs = new HashMap<>();
        new ObjectMapper().readTree(r.out()).get("ops")
                .forEach(o -> specs.put(o.get("name").asText(), o.get("specs").asInt()));
        assertEquals(2, specs.get("tanh"), "the graph with an unknown node op does not count for its tanh either");
        assertEquals(0, specs.get("softmax"));
    }

    @Test
    void opsWithoutABackwardAreNotListed() throws IOException {
        twoTanhSpecs();
        JsonNode root = new ObjectMapper().readTree(Cli.run("coverage", dir.toString(), "--json").out());
        for (JsonNode o : root.get("ops")) {
            String name = o.get("name").asText();
            // a _bp/_grad kernel itself, a comparison and an RNG op: their doDiff is unsupported or returns nothing
            assertFalse(name.equals("mean_sqerr_loss_grad") || name.equals("randomuniform_bp")
                    || name.equals("distribution_uniform") || name.equals("broadcastadd"), name);
        }
    }

    @Test
    void tableEndsWithTheFigureAndUncoveredHidesCoveredOps() throws IOException {
        twoTanhSpecs();
        Cli r = Cli.run("coverage", dir.toString());
        assertTrue(r.out().matches("(?s).*\\ntanh\\s+bp kernel\\s+2\\s+2\\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*\\n\\d+ ops with a backward: 1 covered by specs \\(0\\.\\d%\\).*"), r.out());
        Cli uncovered = Cli.run("coverage", dir.toString(), "--uncovered");
        assertFalse(uncovered.out().contains("\ntanh "), uncovered.out());
        assertTrue(uncovered.out().contains("\nsoftmax "), uncovered.out());
    }

    @Test
    void aMissingSpecsDirectoryIsAUsageError() {
        Cli r = Cli.run("coverage", dir.resolve("nope").toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("no such file or directory"), r.err());
    }
}
