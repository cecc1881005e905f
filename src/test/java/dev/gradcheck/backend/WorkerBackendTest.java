package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.CheckResult;
import dev.gradcheck.check.Status;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecLoader;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Real worker JVMs: a native crash, an exit and a hang each end one check, and the batch goes on. */
class WorkerBackendTest {

    static Path misbehaving() {
        try {
            return Path.of(WorkerBackendTest.class.getResource("/workers/misbehaving.yaml").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void everyOtherCheckSurvivesACrashAnExitAndAHang() {
        List<LoadedSpec> specs = new SpecLoader().load(misbehaving());
        List<CheckResult> results = new ArrayList<>();
        try (WorkerBackend backend = new WorkerBackend(TestWorkerMain.options(), new TimeLimits(null))) {
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
    void aCudaWorkerWhoseNd4jFellBackToTheCpuIsRefusedAndItsChecksSkipped() {
        // ND4J only warns when CUDA cannot load and runs on the CPU: CPU numbers must never be reported as CUDA's
        LoadedSpec tanh = new SpecLoader().load(misbehaving()).get(0);
        try (WorkerBackend cuda = new WorkerBackend(WorkerOptions.cpu().onCuda(), new TimeLimits(null))) {
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
