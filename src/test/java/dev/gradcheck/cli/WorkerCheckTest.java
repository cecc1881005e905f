package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.CheckRequest;
import dev.gradcheck.backend.TestWorkerMain;
import dev.gradcheck.backend.WorkerOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/** {@code check} through worker JVMs, as users run it: crash isolation, ordering, skipped backends, Ctrl-C. */
@Tag("slow") // starts worker JVMs and a front-end JVM
class WorkerCheckTest {

    private static final String BATCH = """
            name: tanh-a
            op: tanh
            inputs: {x: {shape: [3]}}
            ---
            name: strided-slice-negative-stride
            op: strided_slice
            attrs: {begin_mask: 0, ellipsis_mask: 0, end_mask: 0, new_axis_mask: 0, shrink_axis_mask: 0}
            inputs:
              x: {shape: [3, 6]}
              begin: {shape: [2], dtype: int32, init: {values: [0, 4]}}
              end: {shape: [2], dtype: int32, init: {values: [3, 0]}}
              strides: {shape: [2], dtype: int32, init: {values: [1, -2]}}
            ---
            name: sigmoid-b
            op: sigmoid
            inputs: {x: {shape: [3]}}
            ---
            name: wrong-op
            op: tanhh
            inputs: {x: {shape: [3]}}
            """;

    @TempDir
    Path dir;

    @Test
    void twoWorkersReportEverySpecInOrderAndTheCrashExitsThree() throws IOException {
        Path file = dir.resolve("batch.yaml");
        Files.writeString(file, BATCH);
        Cli r = Cli.runWithWorkers(WorkerOptions.cpu(), "check", file.toString(), "--jobs", "2", "--format", "json");
        assertEquals(3, r.exit(), r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        List<String> statuses = new ArrayList<>();
        json.get("checks").forEach(c -> statuses.add(c.get("name").asText() + "=" + c.get("status").asText()));
        assertEquals(List.of("tanh-a=passed", "strided-slice-negative-stride=crashed", "sigmoid-b=passed",
                "wrong-op=invalid"), statuses, "spec order, whichever worker finished first");
        String crash = json.get("checks").get(1).get("message").asText();
        assertTrue(crash.matches("(?s)worker crashed: .*SIG[A-Z]+.*\nlast worker output:\n.*"), crash);
        assertEquals(1, json.at("/summary/crashed").asInt());
        assertTrue(json.get("checks").get(3).get("message").asText().contains("tanhh"), "unknown op found in a worker");
    }

    @Test
    void theCommandLinesCheckingOptionsReachTheWorker() throws IOException {
        Path file = dir.resolve("tanh.yaml");
        Files.writeString(file, CheckCommandTest.TANH);
        Cli r = Cli.runWithWorkers(WorkerOptions.cpu(), "check", file.toString(), "--mode", "fast", "--format",
                "json");
        assertEquals(0, r.exit(), r.err());
        List<String> kinds = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).at("/checks/0/gradients").forEach(g -> kinds.add(g.get("kind").asText()));
        assertTrue(kinds.contains("fast") && !kinds.contains("jacobian"), "checked in fast mode: " + kinds);
    }

    @Test
    void cudaIsSkippedWithTheReasonAndLeavesTheExitCodeUnlessRequired() throws IOException {
        Path file = dir.resolve("tanh.yaml");
        Files.writeString(file, CheckCommandTest.TANH);
        Cli r = Cli.runWithWorkers(WorkerOptions.cpu(), "check", file.toString(), "--backend", "cuda");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().matches("(?s).*\\nskipped\\s+tanh-ok \\(cuda\\).*"), r.out());
        assertTrue(r.out().contains("cuda: nd4j-cuda is not on the class path"), r.out());
        assertTrue(r.err().contains("cuda checks are skipped"), r.err());

        Cli required = Cli.runWithWorkers(WorkerOptions.cpu(), "check", file.toString(), "--backend", "cuda",
                "--require-backend", "--format", "json");
        assertEquals(2, required.exit());
        assertTrue(required.err().contains("--require-backend: 1 check(s) skipped"), required.err());
        JsonNode summary = new ObjectMapper().readTree(required.out()).get("summary");
        assertEquals(2, summary.get("exit_code").asInt(), "the report agrees with the process: " + summary);
        assertFalse(summary.get("interrupted").asBoolean());
    }

    @Test
    void inProcessRunsCpuOnlyAndSaysSo() throws IOException {
        Path file = dir.resolve("both.yaml");
        Files.writeString(file, CheckCommandTest.TANH + "backends: [cpu, cuda]\n");
        Cli r = Cli.runWithWorkers(WorkerOptions.cpu(), "check", file.toString(), "--in-process");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().matches("(?s).*\\npassed\\s+tanh-ok\\s.*\\nskipped\\s+tanh-ok \\(cuda\\).*"), r.out());
        assertTrue(r.out().contains("--in-process runs on the cpu backend only"), r.out());
    }

    @Test
    void aFileEditedMidRunIsCheckedAsTheFrontEndReadIt() throws Exception {
        // workers read spec files again from disk: a file edited mid-run was checked as edited, under the name the
        // front end had validated (issue 36, item 11); the worker now gets the text the front end read
        Path marker = dir.resolve("sleeping");
        Path first = Files.writeString(dir.resolve("a-first.yaml"), "name: sleeps\nop: test-sleep\nattrs: {seconds: 10,"
                + " marker: '" + marker + "'}\ninputs: {x: {shape: [2]}}\n");
        Path second = Files.writeString(dir.resolve("b-second.yaml"), "name: b\nop: tanh\ninputs: {x: {shape: [3]}}\n");
        java.util.concurrent.CompletableFuture<Cli> run = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                Cli.runWithWorkers(dev.gradcheck.backend.TestWorkerMain.options(), "check", first.toString(),
                        second.toString(), "--format", "json"));
        for (int i = 0; i < 1200 && !Files.exists(marker) && !run.isDone(); i++) {
            Thread.sleep(100); // waits for the event: the first check has started, the second not yet
        }
        assertTrue(Files.exists(marker), "the first check never started");
        Files.writeString(second, "name: b\nop: sin\ninputs: {x: {shape: [3]}}\n"); // the same positions
        Cli r = run.get(5, TimeUnit.MINUTES);
        JsonNode checks = new ObjectMapper().readTree(r.out()).get("checks");
        assertEquals("b", checks.get(1).get("name").asText(), r.out());
        assertEquals("tanh", checks.get(1).get("op").asText(), "checked as read, not as edited: " + r.out());
        assertEquals("passed", checks.get(1).get("status").asText(), r.out());
    }

    @Test
    void validateHandsTheEngineTheTextItRead() throws Exception {
        // validate sent an engine the spec's position alone, and a worker read the file again: a file edited after
        // the front end read it was validated as edited (issue 32, goal 5); now the text read travels with the spec
        String text = "name: b\nop: tanh\ninputs: {x: {shape: [3]}}\n";
        Path file = Files.writeString(dir.resolve("b.yaml"), text);
        List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        Cli r = Cli.runWithPlugins((plugins, budget) -> recording(BackendFactory.CPU.create(plugins, budget), sent),
                "validate", "--in-process", file.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(List.of(text), sent, "the engine was asked to validate the text the front end read");
    }

    /** A backend that notes the text each validation request carries, and validates as {@code real} does. */
    private static Backend recording(Backend real, List<String> sent) {
        return new Backend() {
            @Override
            public dev.gradcheck.result.Engine engine() {
                return real.engine();
            }

            @Override
            public dev.gradcheck.result.CheckResult run(CheckRequest request) {
                return real.run(request);
            }

            @Override
            public dev.gradcheck.result.CheckResult validate(CheckRequest request) {
                sent.add(String.valueOf(request.text()));
                return real.validate(request);
            }

            @Override
            public void close() {
                real.close();
            }
        };
    }

    /** A real front end, a real signal: the report's exit code is the one the process ends with. */
    @ParameterizedTest
    @CsvSource({"INT, 130", "TERM, 143", "HUP, 129"})
    void aSignalWritesTheResultsSoFarWithTheProcesssOwnExitCode(String signal, int code) throws Exception {
        Path marker = dir.resolve("sleeping");
        Path file = dir.resolve("slow.yaml");
        Files.writeString(file, CheckCommandTest.TANH + "---\nname: hangs\nop: test-sleep\nattrs: {seconds: 600, marker: '"
                + marker + "'}\ninputs: {x: {shape: [2]}}\n");
        Process front = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), TestFrontEnd.class.getName(),
                "check", file.toString(), "--format", "json")
                .redirectError(dir.resolve("stderr.txt").toFile()).start();
        try {
            for (int i = 0; i < 1200 && !Files.exists(marker); i++) {
                Thread.sleep(100); // the first check is done once the second has started
            }
            assertTrue(Files.exists(marker), "the hanging check never started");
            new ProcessBuilder("kill", "-" + signal, Long.toString(front.pid())).start().waitFor();
            String out = new String(front.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(front.waitFor(60, TimeUnit.SECONDS));
            assertEquals(code, front.exitValue(), "128 + SIG" + signal + "'s number, as shells report it");
            JsonNode json = new ObjectMapper().readTree(out);
            assertEquals(1, json.at("/summary/total").asInt(), out);
            assertEquals(code, json.at("/summary/exit_code").asInt(), "the code the process exits with: " + out);
            assertTrue(json.at("/summary/interrupted").asBoolean(), out);
            assertEquals("passed", json.at("/checks/0/status").asText());
            assertTrue(Files.readString(dir.resolve("stderr.txt")).contains("interrupted by SIG" + signal
                    + "; the report holds the 1"), Files.readString(dir.resolve("stderr.txt")));
        } finally {
            front.destroyForcibly();
        }
    }

    /** The test front end, checking {@code args}, its stderr to stderr.txt; {@code jvm}: options of its JVM. */
    private Process frontEnd(List<String> jvm, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path")));
        command.addAll(jvm);
        command.add(TestFrontEnd.class.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(dir.resolve("stderr.txt").toFile()).start();
    }

    /**
     * A signal while the run is being readied (specs read, engines starting): a report all the same, the new one,
     * marked interrupted, with the signal's exit code. The earlier run's report is removed as the run starts, so
     * none survives to be published as this run's. Signalled the moment the old report is gone, and a little later.
     */
    @ParameterizedTest
    @CsvSource({"0", "300"})
    void aSignalBeforeAnyCheckFinishedWritesAnInterruptedReportInPlaceOfTheStaleOne(long delayMillis)
            throws Exception {
        Path file = dir.resolve("slow.yaml");
        Files.writeString(file, "name: hangs\nop: test-sleep\nattrs: {seconds: 600}\ninputs: {x: {shape: [2]}}\n");
        Path report = Files.writeString(dir.resolve("r.json"), "{\"stale\": true}");
        Process front = frontEnd(List.of(), "check", file.toString(), "--format", "json", "--output",
                report.toString());
        try {
            for (int i = 0; i < 60_000 && Files.exists(report); i++) {
                Thread.sleep(1);
            }
            assertFalse(Files.exists(report), "the stale report was never removed");
            Thread.sleep(delayMillis);
            new ProcessBuilder("kill", "-TERM", Long.toString(front.pid())).start().waitFor();
            assertTrue(front.waitFor(60, TimeUnit.SECONDS));
            String err = Files.readString(dir.resolve("stderr.txt"));
            assertEquals(143, front.exitValue(), err);
            JsonNode json = new ObjectMapper().readTree(Files.readString(report));
            assertFalse(json.has("stale"), json.toString());
            assertEquals(0, json.at("/summary/total").asInt(), json.toString());
            assertTrue(json.at("/summary/interrupted").asBoolean(), json.toString());
            assertEquals(143, json.at("/summary/exit_code").asInt(), json.toString());
            assertTrue(err.contains("interrupted by SIGTERM before any check finished"), err);
        } finally {
            front.destroyForcibly();
        }
    }

    /**
     * SIGTERM ends the process whatever its report is blocked on: here an --output FIFO that nobody reads, which
     * the report's hook waits on for ever. After a grace (shortened here) the process ends with the signal's code.
     */
    @Test
    void aSignalEndsTheProcessEvenWhenItsReportCannotBeWritten() throws Exception {
        Path marker = dir.resolve("sleeping");
        Path file = dir.resolve("slow.yaml");
        Files.writeString(file, "name: hangs\nop: test-sleep\nattrs: {seconds: 600, marker: '" + marker
                + "'}\ninputs: {x: {shape: [2]}}\n");
        Path fifo = dir.resolve("unread.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Process front = frontEnd(List.of("-Dgradcheck.signal.grace.ms=2000"), "check", file.toString(), "--format",
                "json", "--output", fifo.toString());
        try {
            for (int i = 0; i < 1200 && !Files.exists(marker); i++) {
                Thread.sleep(100);
            }
            assertTrue(Files.exists(marker), "the hanging check never started");
            new ProcessBuilder("kill", "-TERM", Long.toString(front.pid())).start().waitFor();
            assertTrue(front.waitFor(60, TimeUnit.SECONDS), "still running a minute after SIGTERM");
            String err = Files.readString(dir.resolve("stderr.txt"));
            assertEquals(143, front.exitValue(), err);
            assertTrue(err.contains("gradcheck: still not ended 2 s after SIGTERM; exiting without waiting for the"
                    + " report"), err);
        } finally {
            front.destroyForcibly();
        }
    }
}
