package dev.gradcheck.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.cli.CheckCommandTest;
import dev.gradcheck.cli.LauncherCopy;
import dev.gradcheck.cli.Main;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libnd4j printf()s to fd 1, which Java cannot redirect; the launcher gives the JVM its real stdout as another
 * descriptor ({@code -Dgradcheck.stdout.fd}). Run the real main in a child JVM the way the launcher does and check
 * the report stays pure JSON, shares stdout's offset, and native chatter lands in the check's log, shown on stderr
 * only with --verbose.
 */
@Tag("slow") // starts the front end and its worker as processes
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
        Path stdout = dir.resolve("stdout.txt");
        String java = ProcessHandle.current().info().command().orElse("java");
        // what bin/gradcheck does, followed by another write to the same stdout, which must not clobber the report
        String command = "'" + java + "' --add-opens java.base/java.io=ALL-UNNAMED -Dgradcheck.stdout.fd=3"
                + " -cp '" + System.getProperty("java.class.path") + "' " + Main.class.getName()
                + " check '" + spec + "' --format json --verbose 3>&1 1>&2; echo END";
        Process p = new ProcessBuilder("bash", "-c", command)
                .redirectOutput(stdout.toFile())
                .redirectError(dir.resolve("stderr.txt").toFile())
                .start();
        assertEquals(0, p.waitFor(), "the expected error ends as expected");
        String out = Files.readString(stdout);
        assertTrue(out.endsWith("}\nEND\n"), "the report, then the shell's own line: " + out);
        JsonNode json = new ObjectMapper().readTree(out.substring(0, out.length() - "END\n".length()));
        assertEquals("expected_error", json.get("checks").get(0).get("status").asText());
        String log = json.get("checks").get(0).get("log").toString();
        assertTrue(log.contains("Mismatched shape") || log.contains("Shape requested"), "the check's own: " + log);
        String err = Files.readString(dir.resolve("stderr.txt"));
        assertTrue(err.contains("Mismatched shape") || err.contains("Shape requested"),
                "--verbose shows it on stderr: " + err);
    }

    /** The real main in a child JVM, run through bash so that its streams can be pointed anywhere. */
    private Process gradcheck(String redirections, String... args) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String command = "'" + java + "' --add-opens java.base/java.io=ALL-UNNAMED -Dgradcheck.stdout.fd=3"
                + " -cp '" + System.getProperty("java.class.path") + "' " + Main.class.getName() + " "
                + String.join(" ", args) + " " + redirections + " 3>&1 1>&2";
        return new ProcessBuilder("bash", "-c", command).redirectError(dir.resolve("stderr.txt").toFile()).start();
    }

    @Test
    void aReportLostToAFullStdoutIsAnErrorExitNotASilentZero() throws Exception {
        Path spec = Files.writeString(dir.resolve("tanh.yaml"), CheckCommandTest.TANH);
        for (String command : new String[] {"check '" + spec + "' --format json", "validate '" + spec + "'"}) {
            Process p = gradcheck("> /dev/full", command);
            assertEquals(2, p.waitFor(), command + ": not 0 (all passed) and not 1 (the mismatch code)");
            String err = Files.readString(dir.resolve("stderr.txt"));
            assertTrue(err.contains("gradcheck: the report could not be written to stdout (No space left on"
                    + " device)"), command + ": " + err);
        }
    }

    /**
     * A reader that stops reading ({@code | head -2}) is no error: the run ends with its own code and nothing on
     * stderr, as git and ripgrep end; a full device stays one (above). The reader is gone before the report is
     * written ({@code true} exits at once), so every write of the report meets a closed pipe.
     */
    @Test
    void aReaderThatLeavesThePipeEndsTheRunQuietlyWithItsOwnCode() throws Exception {
        Path passing = Files.writeString(dir.resolve("tanh.yaml"), CheckCommandTest.TANH);
        Path failing = Files.writeString(dir.resolve("bad.yaml"), "op: tanh\ninputs:\n  x: {shape: [2]}\n"
                + "expect: fail\nreason: expects a failure that does not come\n");
        for (String[] run : new String[][] {{"'" + passing + "'", "0"}, {"'" + failing + "' --format json", "1"}}) {
            String java = ProcessHandle.current().info().command().orElse("java");
            String command = "set -o pipefail; '" + java + "' --add-opens java.base/java.io=ALL-UNNAMED"
                    + " -Dgradcheck.stdout.fd=3 -cp '" + System.getProperty("java.class.path") + "' "
                    + Main.class.getName() + " check --in-process " + run[0] + " 3>&1 1>&2 | true";
            Process p = new ProcessBuilder("bash", "-c", command)
                    .redirectError(dir.resolve("stderr.txt").toFile()).start();
            assertEquals(Integer.parseInt(run[1]), p.waitFor(), run[0] + ": the run's own code");
            String err = Files.readString(dir.resolve("stderr.txt"));
            assertFalse(err.contains("could not be written"), run[0] + ": " + err);
            assertEquals("", err.strip(), run[0] + ": nothing on stderr");
        }
    }

    @Test
    void aClosedStdoutIsAnErrorExitFromTheLauncherWithoutABashError() throws Exception {
        Path spec = Files.writeString(dir.resolve("tanh.yaml"), CheckCommandTest.TANH);
        Path launcher = LauncherCopy.of(dir.resolve("gradcheck-home"));
        Process closed = new ProcessBuilder("bash", "-c", "'" + launcher + "' check '" + spec + "' >&-")
                .redirectError(dir.resolve("stderr.txt").toFile()).start();
        assertEquals(2, closed.waitFor());
        String err = Files.readString(dir.resolve("stderr.txt"));
        assertTrue(err.contains("gradcheck: the report could not be written to stdout (stdout is closed)"), err);
        assertFalse(err.contains("Bad file descriptor"), "was: line 45: 1: Bad file descriptor, exit 1: " + err);

        Path report = dir.resolve("report.json");
        Process toFile = new ProcessBuilder("bash", "-c", "'" + launcher + "' check '" + spec + "' --format json"
                + " --output '" + report + "' >&-").redirectError(dir.resolve("stderr.txt").toFile()).start();
        assertEquals(0, toFile.waitFor(), "a closed stdout does not matter to --output: "
                + Files.readString(dir.resolve("stderr.txt")));
        assertEquals("passed", new ObjectMapper().readTree(report.toFile()).at("/checks/0/status").asText());
    }
}
