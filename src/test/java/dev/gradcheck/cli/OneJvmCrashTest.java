package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small run checks in the front end's JVM (backend.SharedJvm); an op that crashes it natively costs the run a
 * second start in workers, never its results: the report is the workers' own, printed once, and stderr says only
 * why the run started again (no JVM banner, no stack trace).
 */
@Tag("slow") // the launcher, a crashing JVM, then the front end and its workers
class OneJvmCrashTest {

    @TempDir
    Path dir;

    @Test
    void aNativeCrashInTheSharedJvmIsRunAgainInWorkersReportedOnce() throws Exception {
        Files.writeString(dir.resolve("a-good.yaml"), CheckCommandTest.TANH);
        // gather with an index out of range segfaults inside ND4J (HostileInputTest)
        Files.writeString(dir.resolve("m-gather.yaml"), """
                graph:
                  - {op: gather, in: [x, i], out: y, attrs: {dimensions: [0]}}
                inputs:
                  x: {shape: [3, 5]}
                  i: {shape: [2], dtype: int32, init: {values: [1000000, -7]}}
                """);
        Files.writeString(dir.resolve("z-good.yaml"), HostileInputFuzzTest.GOOD_LAST);
        Path launcher = LauncherCopy.of(dir.resolve("home"));
        ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "check", dir.toString(), "--format", "json");
        pb.environment().put("TMPDIR", Files.createDirectories(dir.resolve("tmp")).toString());
        pb.environment().remove("GRADCHECK_ONE_JVM");
        pb.environment().remove("GRADCHECK_DEBUG");
        pb.redirectOutput(dir.resolve("out.json").toFile()).redirectError(dir.resolve("err.txt").toFile());
        int exit = pb.start().waitFor();
        String err = Files.readString(dir.resolve("err.txt"));
        assertEquals(3, exit, err);
        JsonNode checks = new ObjectMapper().readTree(dir.resolve("out.json").toFile()).get("checks");
        List<String> statuses = new ArrayList<>();
        checks.forEach(c -> statuses.add(c.get("name").asText() + "=" + c.get("status").asText()));
        assertEquals(List.of("tanh-ok=passed", "m-gather=crashed", "good-last=passed"), statuses);
        assertTrue(checks.get(1).get("message").asText().startsWith("worker crashed: SIGSEGV in native code"),
                checks.get(1).toString());
        assertTrue(err.startsWith("gradcheck: a check crashed the JVM it shared with the front end (exit 1); running"
                + " the specs again, each in a worker JVM\n"), err);
        assertTrue(err.lines().noneMatch(l -> l.startsWith("#") || l.contains("Exception") || l.contains("\tat ")),
                err);
        try (var left = Files.list(dir.resolve("tmp"))) {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith("gradcheck-run"))
                    .toList(), "the shared JVM's directory is removed");
        }
    }
}
