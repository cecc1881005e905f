package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CI options of {@code check}: --last-failed / --failed-first from the cache, --tag, --only globs,
 * --collect-only, --fail-fast's report, --durations.
 */
class CiOptionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path specs;
    private Path cache;

    private static final String PASSING = """
            name: %s
            op: tanh
            inputs: {x: {shape: [2]}}
            tags: [%s]
            """;

    /** An unexpected pass: a check that "fails" (needs attention, exit 1) with a correct op. */
    private static final String FAILING = PASSING + "expect: fail\nreason: believed broken\n";

    @BeforeEach
    void writeSpecs() throws IOException {
        specs = Files.createDirectories(dir.resolve("specs"));
        cache = dir.resolve("cache");
        Files.writeString(specs.resolve("a.yaml"), PASSING.formatted("a-pass", "fast") + "---\n"
                + FAILING.formatted("a-fail", "slow"));
        Files.writeString(specs.resolve("b.yaml"), PASSING.formatted("b-pass", "slow, cuda") + "---\n"
                + FAILING.formatted("b-fail", "fast"));
        Files.createDirectories(specs.resolve("deep/er"));
        Files.writeString(specs.resolve("deep/er/c.yaml"), PASSING.formatted("c-pass", "slow"));
    }

    private Cli check(String... more) {
        List<String> args = new ArrayList<>(List.of("check", specs.toString(), "--cache-dir", cache.toString()));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(new String[0]));
    }

    private List<String> collected(String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of(more));
        args.addAll(List.of("--collect-only", "--format", "json"));
        Cli r = check(args.toArray(new String[0]));
        assertEquals(0, r.exit(), r.err());
        List<String> names = new ArrayList<>();
        JSON.readTree(r.out()).get("specs").forEach(s -> names.add(s.get("name").asText()));
        return names;
    }

    @Test
    void lastFailedSelectsExactlyTheFailuresOfTheLastRun() throws IOException {
        Cli first = check();
        assertEquals(1, first.exit(), first.out());
        assertEquals(List.of("a-fail", "b-fail"), collected("--last-failed"));
        Cli again = check("--last-failed", "--format", "json");
        JsonNode checks = JSON.readTree(again.out()).get("checks");
        assertEquals(2, checks.size());
        assertEquals("unexpected_pass", checks.get(0).get("status").asText());

        assertEquals(List.of("a-fail", "b-fail", "a-pass", "b-pass", "c-pass"), collected("--failed-first"));

        // fix one: it leaves the cache when it passes, and only the other stays
        Files.writeString(specs.resolve("b.yaml"), PASSING.formatted("b-pass", "slow") + "---\n"
                + PASSING.formatted("b-fail", "fast"));
        Cli rerun = check("--last-failed");
        assertEquals(1, rerun.exit(), "a-fail still fails");
        assertTrue(rerun.out().contains("2 checks: 1 passed, 0 failed, 1 unexpected pass"), rerun.out());
        assertEquals(List.of("a-fail"), collected("--last-failed"));

        // a run of part of the suite leaves the others' entries alone
        assertEquals(0, check("--only", "c-*").exit());
        assertEquals(List.of("a-fail"), collected("--last-failed"));
    }

    @Test
    void lastFailedWithNothingRecordedChecksEverythingAndSaysSo() throws IOException {
        Cli r = check("--last-failed", "--only", "*-pass");
        assertEquals(0, r.exit());
        assertTrue(r.err().contains("--last-failed: no spec among the 3 selected needed attention"), r.err());
        assertTrue(r.out().contains("3 checks: 3 passed"), r.out());
        assertTrue(Files.isRegularFile(cache.resolve("CACHEDIR.TAG")) && Files.isRegularFile(cache.resolve(
                ".gitignore")), "the cache marks itself");
        JsonNode durations = JSON.readTree(cache.resolve("durations.json").toFile());
        assertEquals(3, durations.get("durations").size(), durations.toString());
    }

    @Test
    void aCorruptCacheIsAWarningNotAnError() throws IOException {
        Files.createDirectories(cache);
        Files.writeString(cache.resolve("lastfailed.json"), "{not json");
        Cli r = check("--last-failed", "--only", "c-pass");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("warning: ignoring " + cache.resolve("lastfailed.json")), r.err());
    }

    /**
     * The cache is advisory: a FIFO in it (which blocks whoever opens it until a writer comes) is refused by name,
     * unopened, with a warning, and the run goes on; the run's record replaces it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"lastfailed.json", "durations.json"})
    void aFifoInTheCacheIsAWarningNotAHang(String name) throws Exception {
        Path fifo = Files.createDirectories(cache).resolve(name);
        for (String option : List.of("--last-failed", "--failed-first", "--quiet")) {
            Files.deleteIfExists(fifo);
            assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
            Cli r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> check(option, "--only", "c-pass",
                    "--shard", "1/1"), option);
            assertEquals(0, r.exit(), option + ": " + r.err());
            assertTrue(r.err().contains("warning: ignoring " + (name.startsWith("d") ? "the cache's durations: " : "")
                    + fifo + ": not a regular file (a FIFO)"), option + ": " + r.err());
            assertTrue(Files.isRegularFile(fifo), "the run's record replaced it");
        }
    }

    @Test
    void tagExpressionsSelectAndABadOnePointsAtItsColumn() throws IOException {
        assertEquals(List.of("a-fail", "b-pass", "c-pass"), collected("--tag", "slow"));
        assertEquals(List.of("a-fail", "c-pass"), collected("--tag", "slow and not cuda"));
        assertEquals(List.of("a-pass", "b-pass", "b-fail"), collected("--tag", "fast or (slow and cuda)"));
        Cli bad = check("--tag", "slow and (cuda", "--collect-only");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("--tag: column 15: expected ')' to close the '(' at column 10\n"
                + "  slow and (cuda\n" + "                ^"), bad.err());
        Cli unknown = check("--tag", "slwo", "--collect-only");
        assertEquals(2, unknown.exit(), "nothing selected");
        assertTrue(unknown.err().contains("--tag names 'slwo', which no spec found carries"), unknown.err());
    }

    @Test
    void onlyGlobsKeepStarsWithinAPathSegment() throws IOException {
        assertEquals(List.of("c-pass"), collected("--only", "**/deep/**"));
        assertEquals(List.of("a-pass", "a-fail", "b-pass", "b-fail"), collected("--only", "**/specs/*.yaml"));
        assertEquals(List.of("a-pass", "b-pass", "c-pass"), collected("--only", "*-pass"));
        Cli crossing = check("--only", "*c.yaml", "--collect-only");
        assertEquals(2, crossing.exit(), "* does not cross '/' any more: " + crossing.out());
        Cli bad = check("--only", "[a-", "--collect-only");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("--only: '[a-' is not a valid glob"), bad.err());
    }

    @Test
    void collectOnlyListsWithoutChecking() throws IOException {
        Files.writeString(specs.resolve("z.yaml"), "name: broken\nop: tanh\ninputs: {x: {shape: [2], dtype: f}}\n");
        Cli table = check("--collect-only", "--tag", "not cuda");
        assertEquals(2, table.exit(), "an invalid spec among the selected: " + table.err());
        assertTrue(table.out().startsWith("SPEC"), table.out());
        assertTrue(table.out().contains("broken") && table.out().contains("INVALID")
                && table.out().contains("z.yaml:3:33: unknown dtype 'f'"), table.out());
        assertTrue(table.out().endsWith("5 specs selected (of 6 found; 1 invalid)\n"), table.out());
        assertFalse(table.out().contains("b-pass"), "tagged cuda: " + table.out());
        assertFalse(Files.exists(cache.resolve("lastfailed.json")), "nothing ran, nothing recorded");

        JsonNode json = JSON.readTree(check("--collect-only", "--format", "json", "--shard", "1/2").out());
        assertEquals("gradcheck-collection", json.get("schema").asText());
        assertEquals(6, json.get("found").asInt());
        assertEquals("1/2", json.get("shard").asText());
        assertEquals(json.get("selected").asInt(), json.get("specs").size());
        Cli junit = check("--collect-only", "--format", "junit");
        assertEquals(2, junit.exit());
        assertTrue(junit.err().contains("--collect-only lists specs as a table or JSON"), junit.err());
    }

    @Test
    void failFastSaysItStoppedAndHowManyDidNotRun() throws IOException {
        Cli table = check("--fail-fast");
        assertEquals(1, table.exit());
        assertTrue(table.out().contains("2 checks: 1 passed, 0 failed, 1 unexpected pass ("), table.out());
        assertTrue(table.out().contains("; stopped at the first unexpected result (--fail-fast): 3 checks not run\n"),
                table.out());
        JsonNode json = JSON.readTree(check("--fail-fast", "--format", "json").out());
        assertEquals(2, json.at("/summary/total").asInt());
        assertEquals(3, json.at("/summary/not_run").asInt());
        assertTrue(json.at("/summary/stopped_early").asBoolean());
        JsonNode whole = JSON.readTree(check("--format", "json").out());
        assertEquals(0, whole.at("/summary/not_run").asInt());
        assertFalse(whole.at("/summary/stopped_early").asBoolean());
    }

    @Test
    void durationsListTheSlowestOnStderr() {
        Cli r = check("--durations", "2", "--only", "*-pass");
        assertEquals(0, r.exit());
        List<String> lines = r.err().lines().toList();
        int at = lines.indexOf("slowest 2 checks, by time:");
        assertTrue(at >= 0, r.err());
        assertTrue(lines.get(at + 1).matches(" +\\d+\\.\\d{3} s  [a-c]-pass +.*\\.yaml:\\d+:1"), lines.get(at + 1));
        assertFalse(r.out().contains("slowest"), "stdout keeps the report alone");
        assertEquals(2, check("--durations", "-1").exit());
    }
}
