package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Any name and any path survive every id, and a merge never loses its input (issue 36, item 7). */
class IdsAndMergesTest {

    private static final String TANH = "name: %s\nop: tanh\ninputs:\n  x: {shape: [2]}\n";

    @TempDir
    Path dir;

    @Test
    void aMergeWrittenOverItsOwnInputReadsItFirst() throws IOException {
        // merge a.json --output a.json deleted a.json before reading it
        Path spec = Files.writeString(dir.resolve("t.yaml"), TANH.formatted("t"));
        Path report = dir.resolve("a.json");
        Cli check = Cli.run("check", spec.toString(), "--in-process", "--format", "json", "--output",
                report.toString());
        assertEquals(0, check.exit(), check.err());
        Cli merge = Cli.run("merge", report.toString(), "--format", "json", "--output", report.toString());
        assertEquals(0, merge.exit(), merge.err());
        JsonNode merged = new ObjectMapper().readTree(report.toFile());
        assertEquals(1, merged.get("checks").size(), merged.toString());
        assertEquals("t", merged.get("checks").get(0).get("name").asText());
    }

    @Test
    void aFileAndANameThatJoinAlikeGetTwoIdsAndMergeAsTwoChecks() throws IOException {
        // spec a::b of x.yaml and spec b of a file x.yaml::a were both x.yaml::a::b: the merge of a green run
        // exited 2, and the cache and shards took them for one spec
        Files.writeString(dir.resolve("x.yaml"), TANH.formatted("\"a::b\""));
        Files.writeString(dir.resolve("x.yaml::a"), TANH.formatted("b"));
        Path report = dir.resolve("run.json");
        Cli check = Cli.runIn(dev.gradcheck.cli.options.Workspace.at(dir, java.util.Map.of()), "check",
                dir.resolve("x.yaml").toString(), dir.resolve("x.yaml::a").toString(), "--in-process", "--format",
                "json", "--output", report.toString());
        assertEquals(0, check.exit(), check.err());
        JsonNode checks = new ObjectMapper().readTree(report.toFile()).get("checks");
        assertEquals(2, checks.size());
        assertNotEquals(checks.get(0).get("id").asText(), checks.get(1).get("id").asText(), checks.toString());
        Cli merge = Cli.run("merge", report.toString());
        assertEquals(0, merge.exit(), merge.err());
        assertTrue(merge.out().contains("2 checks: 2 passed"), merge.out());
    }

    @Test
    void aPathWithColonsKeepsThemInTheFormatsThatNameTheFile() throws IOException {
        // a file y::z.yaml was named y in JUnit, GitHub and HTML (its id cut at the first ::)
        Path file = Files.writeString(dir.resolve("y::z.yaml"), "name: typo\nop: tanhh\ninputs:\n  x: {shape: [2]}\n");
        Cli github = Cli.runIn(dev.gradcheck.cli.options.Workspace.at(dir, java.util.Map.of()), "check",
                file.toString(), "--in-process", "--format", "github");
        assertEquals(2, github.exit(), github.err());
        // (a workflow command writes a property's colons as %3A)
        assertTrue(github.out().contains("::error file=y%3A%3Az.yaml,line=1,col=1,"), github.out());
    }
}
