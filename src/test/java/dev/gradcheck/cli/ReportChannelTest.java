package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libnd4j printf()s to fd 1, which Java cannot redirect; the launcher gives the JVM its real stdout as another
 * descriptor ({@code -Dgradcheck.stdout}). Run the real main in a child JVM and check the report channel stays
 * pure JSON while native chatter lands on the process's stdout.
 */
class ReportChannelTest {

    @TempDir
    Path dir;

    @Test
    void nativeChatterNeverReachesTheReport() throws IOException, InterruptedException {
        Path spec = dir.resolve("chatty.yaml");
        // the backward of a partial logsumexp fails inside libnd4j, which prints shape diagnostics on fd 1
        Files.writeString(spec, """
                op: reduce_logsumexp
                attrs: {dimensions: [1]}
                inputs:
                  x: {shape: [2, 3]}
                expect: error
                reason: reduce_sum_bp receives no dimensions (docs/nd4j-findings.md)
                """);
        Path report = dir.resolve("report.json");
        Path stdout = dir.resolve("stdout.txt");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(List.of(java, "-Dgradcheck.stdout=" + report,
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "check", spec.toString(), "--format", "json"))
                .redirectOutput(stdout.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertEquals(0, p.waitFor(), "the expected error ends as expected");
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals("expected_error", json.get("checks").get(0).get("status").asText());
        assertTrue(Files.readString(stdout).contains("Mismatched shape")
                        || Files.readString(stdout).contains("Shape requested"),
                "the native chatter went to fd 1, not into the report: " + Files.readString(stdout));
    }
}
