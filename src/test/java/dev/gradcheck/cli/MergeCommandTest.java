package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gradcheck.report.ReportFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

    /** A report of one passed check, written by hand: what the hostile files below are made from. */
    private static String report(String exitCode, String more) {
        return """
                {"schema": "gradcheck-report", "schema_version": 1, "tool": {"name": "gradcheck", "version": "0.1.0"},
                 "summary": {"total": 1, "exit_code": %s, "interrupted": false, "seconds": 1.5},
                 "checks": [{"name": "t", "location": "a.yaml:1:1", "op": "tanh", "backend": "cpu",
                   "dtype": "float64", "status": "passed", "expected": "pass", "reason": null, "message": null,
                   "tolerance": null, "delta": 1.0E-6, "seconds": 0.5, "gradients": [], "nodes": [],
                   "cross_backend": null}]%s}
                """.formatted(exitCode, more);
    }

    /** The merge of {@code file}: exit 2, refused on one line naming it, never a trace or an internal error. */
    private static Cli assertRefused(Path file, String expected) {
        Cli r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Cli.run("merge", file.toString()));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("gradcheck: merge: " + file + ": " + expected), r.err());
        assertFalse(r.err().contains("internal error") || r.err().contains("Exception") || r.err().contains("\tat "),
                r.err());
        assertEquals("", r.out(), "no report from a refused merge");
        return r;
    }

    @Test
    void aFlagThatIsNotABooleanAKeyTwiceAndNoTimeAreRefused() throws IOException {
        // each was merged: "yes" read as false, the last of two keys taken, -1 and 1e308 seconds summed
        Path yes = dir.resolve("yes.json");
        Files.writeString(yes, report("0", "").replace("\"interrupted\": false", "\"interrupted\": \"yes\""));
        assertRefused(yes, "summary.interrupted: expected true or false");
        Path twice = dir.resolve("twice.json");
        Files.writeString(twice, report("0", "").replace("\"exit_code\": 0,", "\"exit_code\": 0, \"exit_code\": 2,"));
        assertRefused(twice, "not JSON: Duplicate field 'exit_code' at line 2, column ");
        for (String time : List.of("-1", "1e308")) {
            Path bad = dir.resolve("time" + time + ".json");
            Files.writeString(bad, report("0", "").replace("\"seconds\": 0.5", "\"seconds\": " + time));
            assertRefused(bad, "checks[0].seconds: expected seconds from 0 to 1000000000, got ");
        }
    }

    @Test
    void jsonBeyondTheParsingLimitsIsRefusedNamingTheFileAndWhere() throws IOException {
        // was: internal error "NullPointerException ... JsonLocation.getLineNr()", exit 3 (a 1,000-digit number
        // was read, exit 0)
        Path deep = dir.resolve("deep.json");
        Files.writeString(deep, report("0", ", \"x\": " + "[".repeat(1500) + "]".repeat(1500)));
        assertRefused(deep, "refused at line 6, column ");
        Path string = dir.resolve("string.json");
        Files.writeString(string, report("0", ", \"x\": \"" + "a".repeat(20_000_001) + "\""));
        assertRefused(string, "refused at line 6, column ");
        Path number = dir.resolve("number.json");
        Files.writeString(number, report("9".repeat(1000), ""));
        Cli r = assertRefused(number, "refused at line 2, column ");
        assertTrue(r.err().contains("exceeds the maximum allowed (100)"), r.err());
    }

    @Test
    void aSecondDocumentAfterTheReportIsRefused() throws IOException {
        // was: the first document merged, the second ignored, exit 0
        Path two = dir.resolve("two.json");
        Files.writeString(two, report("0", "") + report("1", ""));
        assertRefused(two, "more JSON after the report at line 7, column 1");
        Path inDir = Files.createDirectories(dir.resolve("reports"));
        Files.writeString(inDir.resolve("two.json"), report("0", "") + "[]");
        Cli walked = Cli.run("merge", inDir.toString());
        assertEquals(2, walked.exit(), walked.err());
        assertTrue(walked.err().contains(inDir.resolve("two.json") + ": more JSON after the report"),
                "a damaged report under a directory is named too, not passed over as some other JSON file: "
                        + walked.err());
    }

    @Test
    void anExitCodeOutsideTheKnownSetIsAReportError() throws IOException {
        // was: merge exited 99
        Path odd = dir.resolve("odd.json");
        Files.writeString(odd, report("99", ""));
        Path good = dir.resolve("good.json");
        Files.writeString(good, report("143", ""));
        Cli r = Cli.run("merge", good.toString(), odd.toString());
        assertEquals(143, r.exit(), "a signal's code is one gradcheck uses: " + r.err());
        assertTrue(r.err().contains(odd + ": summary.exit_code: 99 is not an exit code of gradcheck (0, 1, 2, 3,"
                + " 129, 130, 143); not merged"), r.err());
        assertTrue(r.out().contains("1 check:"), "the other report is merged: " + r.out());
        assertRefused(odd, "summary.exit_code: 99 is not an exit code of gradcheck");
    }

    @Test
    void aFifoOrDeviceIsRefusedByNameWithoutOpeningIt() throws Exception {
        // was: merge of a FIFO without a writer hung in open()
        Path reports = Files.createDirectories(dir.resolve("reports"));
        Path fifo = reports.resolve("r.json");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        assertRefused(fifo, "not a regular file (a FIFO); only regular files are read as reports, this one was not"
                + " read");
        assertRefused(Path.of("/dev/zero"), "not a regular file (a character device)");
        Files.writeString(reports.resolve("good.json"), report("0", ""));
        Cli walked = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Cli.run("merge", reports.toString()));
        assertEquals(2, walked.exit(), walked.err());
        assertTrue(walked.err().contains(fifo + ": not a regular file (a FIFO)"), "a FIFO under a directory is named,"
                + " not silently left out: " + walked.err());
        assertTrue(walked.out().contains("1 check:"), walked.out());
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
