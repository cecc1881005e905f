package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gradcheck.report.ReportFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --shard K/N} then {@code gradcheck merge}: the merged report of the shards is the report of the
 * unsharded run (same checks in the same order, same summary and exit code), in every format.
 */
class MergeCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path specs;

    /** Eight specs in four files: passes, an unexpected pass (exit 1) and an invalid spec (exit 2). */
    @BeforeEach
    void writeSpecs() throws IOException {
        specs = Files.createDirectories(dir.resolve("specs"));
        Files.writeString(specs.resolve("a.yaml"), """
                name: tanh-a
                op: tanh
                inputs: {x: {shape: [3]}}
                ---
                name: sigmoid-a
                op: sigmoid
                inputs: {x: {shape: [2, 2]}}
                """);
        Files.writeString(specs.resolve("b.yaml"), """
                name: xpass-b
                op: tanh
                inputs: {x: {shape: [2]}}
                expect: fail
                reason: thought broken
                """);
        Files.createDirectories(specs.resolve("sub"));
        Files.writeString(specs.resolve("sub/c.yaml"), """
                name: bad-c
                op: tanh
                inputs: {x: {shape: [2], dtype: float65}}
                ---
                name: softplus-c
                op: softplus
                inputs: {x: {shape: [4]}}
                """);
        Files.writeString(specs.resolve("d.yaml"), """
                name: relu-d
                op: relu
                inputs: {x: {shape: [3], init: {values: [-1.0, 0.5, 2.0]}}}
                ---
                name: exp-d
                op: exp
                inputs: {x: {shape: [2]}}
                ---
                name: square-d
                op: square
                inputs: {x: {shape: [2]}}
                """);
    }

    private List<Path> shardReports(int n) {
        List<Path> reports = new ArrayList<>();
        for (int k = 1; k <= n; k++) {
            Path report = dir.resolve("shard-" + k + ".json");
            Cli r = Cli.run("check", specs.toString(), "--shard", k + "/" + n, "--format", "json", "--output",
                    report.toString());
            assertTrue(r.exit() <= 2, r.err());
            reports.add(report);
        }
        return reports;
    }

    private static String[] args(List<Path> reports, String... more) {
        List<String> all = new ArrayList<>(List.of("merge"));
        reports.forEach(p -> all.add(p.toString()));
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }

    @Test
    void theMergedShardsAreTheUnshardedRun() throws IOException {
        Cli whole = Cli.run("check", specs.toString(), "--format", "json");
        assertEquals(2, whole.exit(), whole.err());
        JsonNode expected = JSON.readTree(whole.out());
        assertEquals(8, expected.at("/summary/total").asInt());

        List<Path> reports = shardReports(3);
        int shardChecks = 0;
        for (Path p : reports) {
            JsonNode shard = JSON.readTree(p.toFile());
            shardChecks += shard.at("/summary/total").asInt();
            assertTrue(shard.at("/summary/total").asInt() < 8, "each shard holds a part");
        }
        assertEquals(8, shardChecks, "disjoint and complete");

        Cli merged = Cli.run(args(reports, "--format", "json"));
        assertEquals(whole.exit(), merged.exit(), merged.err());
        JsonNode actual = JSON.readTree(merged.out());
        assertEquals(comparable(expected.get("summary")), comparable(actual.get("summary")));
        assertEquals(comparable(expected.get("checks")), comparable(actual.get("checks")));
        assertEquals(3, actual.at("/run/merged_from").size());
        for (JsonNode check : actual.get("checks")) {
            assertTrue(check.get("shard").asText().matches("[123]/3"), "each check keeps its shard: " + check);
        }
        assertEquals("xpass-b", actual.at("/checks/2/name").asText());
    }

    @Test
    void everyReportFormatMergesWithTheSameSummaryAndExitCode() throws IOException {
        Cli whole = Cli.run("check", specs.toString());
        String summary = lastLine(whole.out()).replaceAll("\\(.* s\\)", "(T)");
        List<Path> reports = shardReports(2);
        for (ReportFormat format : ReportFormat.values()) {
            Cli merged = Cli.run(args(reports, "--format", format.cliName()));
            assertEquals(2, merged.exit(), format + ": " + merged.err());
            assertFalse(merged.out().isBlank(), format.cliName());
            if (format == ReportFormat.TABLE) {
                assertEquals(summary, lastLine(merged.out()).replaceAll("\\(.* s\\)", "(T)"));
            }
        }
        Cli junit = Cli.run(args(reports, "--format", "junit"));
        assertTrue(junit.out().contains("classname=\"specs.d\"") || junit.out().contains(".specs.d\""), junit.out());
    }

    @Test
    void aMissingShardIsReportedAndExitsTwo() throws IOException {
        List<Path> reports = shardReports(3);
        Cli merged = Cli.run(args(reports.subList(0, 2)));
        assertEquals(2, merged.exit());
        assertTrue(merged.err().contains("shard 3/3 is missing (given: 1/3, 2/3)"), merged.err());
        assertTrue(merged.out().contains(" checks: "), "the report of what is there is still written: " + merged.out());
    }

    @Test
    void conflictingShardsAndMixedSchemaVersionsAreRefusedNamingTheFiles() throws IOException {
        List<Path> reports = shardReports(2);
        Cli twice = Cli.run(args(List.of(reports.get(0), reports.get(0), reports.get(1))));
        assertEquals(2, twice.exit());
        assertTrue(twice.err().contains("shard 1/2 appears twice"), twice.err());
        assertEquals("", twice.out(), "no report from a refused merge");

        Path other = dir.resolve("other.json");
        Cli threeShards = Cli.run("check", specs.toString(), "--shard", "1/3", "--format", "json", "--output",
                other.toString());
        assertTrue(threeShards.exit() <= 2);
        Cli totals = Cli.run(args(List.of(reports.get(0), other)));
        assertEquals(2, totals.exit());
        assertTrue(totals.err().contains("shards of different totals"), totals.err());

        Path newer = dir.resolve("newer.json");
        Files.writeString(newer, Files.readString(reports.get(1)).replace("\"schema_version\": 1",
                "\"schema_version\": 2"));
        Cli mixed = Cli.run(args(List.of(reports.get(0), newer)));
        assertEquals(2, mixed.exit());
        assertTrue(mixed.err().contains("reports of different schema versions cannot be merged: "
                + reports.get(0) + " (schema_version 1), " + newer + " (schema_version 2)"), mixed.err());
        assertEquals("", mixed.out());
    }

    @Test
    void directoriesNonReportsAndDurations() throws IOException {
        List<Path> reports = shardReports(2);
        Path notReport = dir.resolve("notes.json");
        Files.writeString(notReport, "{\"hello\": 1}");
        Path durations = dir.resolve("durations.json");
        Cli fromDir = Cli.run("merge", dir.toString(), "--write-durations", durations.toString());
        assertEquals(2, fromDir.exit(), fromDir.err());
        assertTrue(fromDir.out().contains("8 checks:"), "a directory's reports, its other JSON left alone: "
                + fromDir.out() + fromDir.err());
        JsonNode written = JSON.readTree(durations.toFile());
        assertEquals("gradcheck-durations", written.get("schema").asText());
        assertEquals(7, written.get("durations").size(), "one entry per checked spec: " + written);

        Cli named = Cli.run("merge", reports.get(0).toString(), notReport.toString());
        assertEquals(2, named.exit());
        assertTrue(named.err().contains(notReport + ": not a gradcheck JSON report"), named.err());

        Cli missing = Cli.run("merge", dir.resolve("nope.json").toString());
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("no such file or directory"), missing.err());
    }

    private static String lastLine(String text) {
        List<String> lines = text.strip().lines().toList();
        return lines.get(lines.size() - 1);
    }

    /** The report without what differs between two runs of the same checks: times and shards. */
    private static JsonNode comparable(JsonNode node) {
        JsonNode copy = node.deepCopy();
        strip(copy);
        return copy;
    }

    private static void strip(JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.remove(List.of("seconds", "shard"));
            for (Iterator<JsonNode> it = o.elements(); it.hasNext(); ) {
                strip(it.next());
            }
        } else if (node instanceof ArrayNode a) {
            a.forEach(MergeCommandTest::strip);
        }
    }
}
