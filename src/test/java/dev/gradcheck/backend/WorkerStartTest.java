package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker started before its first check (while the front end reads its specs, or before it reads its command
 * line) is the one that check uses, its start still does not count against the check's time limit, and one that
 * no check takes is killed rather than left behind.
 */
@Tag("slow") // starts worker JVMs
class WorkerStartTest {

    @TempDir
    Path dir;

    private static WorkerOptions options() {
        return TestWorkerMain.options();
    }

    private OpSpec tanh(double timeoutSeconds) throws IOException {
        Path file = dir.resolve("tanh.yaml");
        Files.writeString(file, "name: tanh\nop: tanh\ntimeout: " + timeoutSeconds + "\ninputs: {x: {shape: [3]}}\n");
        return new SpecLoader().load(file).get(0).spec();
    }

    private static void awaitExit(ProcessHandle p) throws InterruptedException, ExecutionException, TimeoutException {
        p.onExit().get(30, TimeUnit.SECONDS);
        assertFalse(p.isAlive());
    }

    @Test
    void aPrestartedWorkerServesTheFirstCheckAndItsStartIsNotTheChecksTime() throws IOException {
        // the worker takes over 20 s to be ready; the check may take 15 (a cold check on a busy machine took over 3)
        WorkerOptions cold = options().withProperty(TestWorkerMain.COLD_SECONDS, "20");
        try (WorkerBackend backend = new WorkerBackend(cold)) {
            backend.prestart();
            ProcessHandle started = backend.worker().orElseThrow(); // at once, before any check
            CheckResult result = backend.run(tanh(15));
            assertEquals(Status.PASSED, result.status(), result::toString);
            assertEquals(started, backend.worker().orElseThrow(), "the check ran on the prestarted worker");
        }
    }

    @Test
    void aPrestartedWorkerThatNoCheckTookIsKilledAtClose() throws Exception {
        ProcessHandle worker;
        try (WorkerBackend backend = new WorkerBackend(options().withProperty(TestWorkerMain.COLD_SECONDS, "600"))) {
            backend.prestart();
            worker = backend.worker().orElseThrow();
        } // a ready worker would be asked to finish; this one, still starting, is killed
        awaitExit(worker);
    }

    @Test
    void aPoolTakesTheEarlyWorkerStartedWithItsOptions() throws IOException {
        WorkerPool.startEarly(options());
        ProcessHandle early = WorkerProcess.early().orElseThrow();
        try (WorkerPool pool = WorkerPool.of(options(), 1)) {
            WorkerBackend backend = (WorkerBackend) pool.lanes(Engine.CPU).get(0).backend();
            CheckResult result = backend.run(tanh(60));
            assertEquals(Status.PASSED, result.status(), result::toString);
            assertEquals(early, backend.worker().orElseThrow(), "the early worker checked it");
            assertTrue(WorkerProcess.early().isEmpty(), "taken");
        }
    }

    @Test
    void aPoolWithOtherOptionsKillsTheEarlyWorkerAndStartsItsOwn() throws Exception {
        WorkerPool.startEarly(options());
        ProcessHandle early = WorkerProcess.early().orElseThrow();
        try (WorkerPool pool = WorkerPool.of(options().withMaxMemory(1L << 30), 1)) {
            WorkerBackend backend = (WorkerBackend) pool.lanes(Engine.CPU).get(0).backend();
            CheckResult result = backend.run(tanh(60));
            assertEquals(Status.PASSED, result.status(), result::toString);
            awaitExit(early);
            assertNotEquals(early, backend.worker().orElseThrow());
        }
    }

    @Test
    void anEarlyWorkerNoRunTookIsKilled() throws Exception {
        WorkerPool.startEarly(options());
        ProcessHandle early = WorkerProcess.early().orElseThrow();
        WorkerPool.discardEarly();
        awaitExit(early);
    }

    /**
     * A worker whose front end ends mid-check (killed by a signal it cannot catch) ends too, though its stdin stays
     * open: here a shell starts it with stdin from a pipe that stays open for two minutes, and exits.
     */
    @Test
    void aWorkerEndsWhenTheProcessThatStartedItEnds() throws Exception {
        String worker = options().command().stream().map(a -> "'" + a.replace("'", "'\\''") + "'")
                .collect(java.util.stream.Collectors.joining(" "));
        Process shell = new ProcessBuilder("sh", "-c", "sleep 120 | " + worker + " >/dev/null 2>&1 & echo $!; sleep 8")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long pid = Long.parseLong(new String(shell.getInputStream().readAllBytes()).trim());
        assertTrue(shell.waitFor(30, TimeUnit.SECONDS), "the shell exits");
        ProcessHandle orphan = ProcessHandle.of(pid).orElse(null);
        if (orphan != null) {
            awaitExit(orphan);
        }
    }
}
