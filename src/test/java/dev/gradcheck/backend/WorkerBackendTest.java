package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecLoader;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real worker JVMs: a native crash, an exit and a hang each end one check, and the batch goes on. */
@Tag("slow") // starts worker JVMs
class WorkerBackendTest {

    static Path misbehaving() {
        try {
            return Path.of(WorkerBackendTest.class.getResource("/workers/misbehaving.yaml").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @TempDir
    Path dir;

    /** Workers read the specs from their file, as the front end names it. */
    private List<LoadedSpec> written(String name, String yaml) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, yaml);
        return new SpecLoader().load(file);
    }

    @Test
    void everyOtherCheckSurvivesACrashAnExitAndAHang() {
        List<LoadedSpec> specs = new SpecLoader().load(misbehaving());
        List<CheckResult> results = new ArrayList<>();
        try (WorkerBackend backend = new WorkerBackend(TestWorkerMain.options())) {
            for (LoadedSpec s : specs) {
                results.add(backend.run(s.spec()));
            }
        }
        assertEquals(List.of(Status.PASSED, Status.CRASHED, Status.PASSED, Status.CRASHED, Status.TIMEOUT,
                Status.PASSED), results.stream().map(CheckResult::status).toList(), results::toString);

        CheckResult segfault = results.get(1);
        assertEquals("strided-slice-negative-stride", segfault.name());
        assertEquals("strided_slice", segfault.op());
        // ND4J's memory corruption ends in glibc's abort or in a SIGSEGV the JVM catches; either way it is named
        assertTrue(segfault.message().matches("(?s)worker crashed: (SIGSEGV in native code|killed by signal"
                + " \\d+ \\(SIG[A-Z]+\\)).*"),
                segfault.message());
        assertTrue(segfault.message().contains("\nlast worker output:\n  "), "the worker's last lines: "
                + segfault.message());

        assertTrue(results.get(3).message().startsWith("worker crashed: exited with status 7"),
                results.get(3).message());
        assertEquals("timed out after 1 s (the spec's timeout)", results.get(4).message());
        assertEquals("cpu", results.get(5).backend());
        assertTrue(results.get(5).gradients().get(0).maxRelError() < 1e-6, "a real check after all that");
    }

    @Test
    void aFreshWorkersWarmUpAndStartUpCountAgainstNoChecksTime() throws IOException {
        // every worker's first check sleeps 4 s: only the warm-up before "ready" may pay that
        List<LoadedSpec> specs = written("warm.yaml", """
                name: hangs
                op: test-sleep
                timeout: 1
                attrs: {seconds: 600}
                inputs: {x: {shape: [2]}}
                ---
                name: tanh-on-a-replacement
                op: tanh
                timeout: 3
                inputs: {x: {shape: [2]}}
                ---
                name: tanh-again
                op: tanh
                timeout: 3
                inputs: {x: {shape: [2]}}
                """);
        List<CheckResult> results = new ArrayList<>();
        WorkerOptions cold = TestWorkerMain.options().withProperty(TestWorkerMain.COLD_SECONDS, "4");
        try (WorkerBackend backend = new WorkerBackend(cold)) {
            for (LoadedSpec s : specs) {
                results.add(backend.run(s.spec()));
            }
        }
        assertEquals(List.of(Status.TIMEOUT, Status.PASSED, Status.PASSED),
                results.stream().map(CheckResult::status).toList(), results::toString);
        // the worker took over 4 s to be ready; the timed-out check's own time is its limit's, about 1 s
        assertTrue(results.get(0).seconds() < 4, "start-up counted in the check's time: " + results.get(0));
    }

    @Test
    void aWorkerRetiresAfterOutOfMemoryAndTheCheckKeepsItsError() throws IOException {
        List<LoadedSpec> specs = written("oom.yaml", """
                name: runs-out
                op: test-oom
                inputs: {x: {shape: [2]}}
                ---
                name: tanh-after
                op: tanh
                inputs: {x: {shape: [2]}}
                """);
        List<CheckResult> results = new ArrayList<>();
        try (WorkerBackend backend = new WorkerBackend(TestWorkerMain.options())) {
            for (LoadedSpec s : specs) {
                results.add(backend.run(s.spec()));
            }
        }
        assertEquals(List.of(Status.ERROR, Status.PASSED), results.stream().map(CheckResult::status).toList(),
                results::toString);
        String message = results.get(0).message();
        assertTrue(message.startsWith("OutOfMemoryError: test-oom"), message);
        assertTrue(message.endsWith("(after this OutOfMemoryError the worker JVM was replaced by a fresh one)"),
                message);
        assertEquals(null, results.get(1).message(), "the next check ran on a fresh worker, untroubled");
    }

    @Test
    void anOperatorPrintingWithoutEndKeepsItsFirstAndLastLinesAndTheRunGoesOn() throws IOException {
        // 3 million lines ran the front end out of memory; every line was kept in the check's log
        long lines = 200_000;
        List<LoadedSpec> specs = written("print.yaml", """
                name: prints
                op: test-print
                attrs: {lines: %d}
                inputs: {x: {shape: [2]}}
                ---
                name: tanh-after
                op: tanh
                inputs: {x: {shape: [2]}}
                """.formatted(lines));
        List<CheckResult> results = new ArrayList<>();
        try (WorkerBackend backend = new WorkerBackend(TestWorkerMain.options())) {
            for (LoadedSpec s : specs) {
                results.add(backend.run(s.spec()));
            }
        }
        CheckResult printed = results.get(0);
        assertEquals(Status.ERROR, printed.status(), printed.toString());
        List<String> log = printed.log();
        assertEquals(CappedLines.HEAD + 1 + CappedLines.TAIL, log.size(), "head, the count dropped, tail");
        assertEquals("printed line 1", log.get(0));
        assertEquals("printed line " + lines, log.get(log.size() - 1));
        assertEquals(CappedLines.droppedLine(lines - CappedLines.HEAD - CappedLines.TAIL), log.get(CappedLines.HEAD));
        assertEquals(Status.PASSED, results.get(1).status(), "the run goes on");
    }

    @Test
    void aWorkerKilledForItsTimeoutTakesTheProcessesItsOperatorStartedWithIt() throws Exception {
        // an operator's child process outlived the worker killed at its timeout (reparented to init, still running)
        Path pidFile = dir.resolve("child.pid");
        List<LoadedSpec> specs = written("spawn.yaml", """
                name: spawns-and-hangs
                op: test-spawn
                timeout: 5
                attrs: {pidfile: "%s"}
                inputs: {x: {shape: [2]}}
                """.formatted(pidFile));
        CheckResult r;
        try (WorkerBackend backend = new WorkerBackend(TestWorkerMain.options())) {
            r = backend.run(specs.get(0).spec());
        }
        assertEquals(Status.TIMEOUT, r.status(), r.toString());
        ProcessHandle child = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).orElse(null);
        if (child != null) {
            child.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS); // ended with its worker, not left running
            assertTrue(!child.isAlive());
        }
    }

    @Test
    void aCudaWorkerWhoseNd4jFellBackToTheCpuIsRefusedAndItsChecksSkipped() {
        // ND4J only warns when CUDA cannot load and runs on the CPU: CPU numbers must never be reported as CUDA's
        LoadedSpec tanh = new SpecLoader().load(misbehaving()).get(0);
        try (WorkerBackend cuda = new WorkerBackend(WorkerOptions.cpu().on(Engine.CUDA, Availability.ALWAYS))) {
            CheckResult r = cuda.run(tanh.spec());
            assertEquals(Status.SKIPPED, r.status(), r.toString());
            assertEquals("cuda", r.backend());
            assertTrue(r.message().startsWith("the cuda worker did not start; worker crashed: exited with status 3"),
                    r.message());
            assertTrue(r.message().contains("asked for the cuda backend, but ND4J loaded CpuBackend"), r.message());
            assertEquals(Status.SKIPPED, cuda.run(tanh.spec()).status(), "no second attempt to start it");
        }
    }
}
