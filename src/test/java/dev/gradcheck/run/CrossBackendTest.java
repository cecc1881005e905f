package dev.gradcheck.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.backend.Availability;
import dev.gradcheck.backend.TestWorkerMain;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.backend.WorkerPool;
import dev.gradcheck.result.BackendDifference;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.SpecLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CPU-vs-CUDA comparison without a GPU: the "cuda" lane is a second CPU worker whose engine scales every output
 * and gradient by 1 + 1e-3, as a backend with different numerics would. The comparison must see exactly that.
 */
@Tag("slow") // starts two worker JVMs
class CrossBackendTest {

    private static final String SPECS = """
            name: sigmoid-both
            op: sigmoid
            inputs: {x: {shape: [2, 3]}}
            ---
            name: cpu-only
            op: tanh
            inputs: {x: {shape: [2]}}
            backends: [cpu]
            """;

    private static final List<Engine> ALL = List.of(Engine.CPU, Engine.CUDA);

    @TempDir
    Path dir;

    private List<CheckResult> run(List<Engine> engines, WorkerOptions second) throws Exception {
        Path file = dir.resolve("specs.yaml");
        Files.writeString(file, SPECS);
        RunConfiguration config = RunConfiguration.of(new SpecLoader().load(file)).withEngines(engines);
        WorkerPool pool = new WorkerPool(e -> new Availability(true, "cuda: a second cpu worker standing in"),
                (e, found) -> e == Engine.CPU ? TestWorkerMain.options() : second, 1);
        try (pool) {
            return new RunSession(config, pool).run().results();
        }
    }

    @Test
    void aBackendThatComputesDifferentNumbersShowsByHowMuch() throws Exception {
        List<CheckResult> results = run(ALL, TestWorkerMain.standInForCuda(1e-3));
        assertEquals(List.of("sigmoid-both/cpu", "sigmoid-both/cuda", "cpu-only/cpu", "cpu-only/cuda"),
                results.stream().map(r -> r.name() + "/" + r.backend()).toList());
        assertTrue(results.stream().allMatch(r -> r.status() == Status.PASSED), "each engine is self-consistent");
        assertNull(results.get(0).crossBackend(), "the reference row carries no difference");
        BackendDifference d = results.get(1).crossBackend();
        assertEquals("cpu", d.against());
        // sigmoid's outputs are >= 0.27 here, so the relative difference is the scale itself
        assertEquals(1e-3, d.maxOutputRel(), 1e-9);
        assertEquals(1e-3, d.maxGradientRel(), 1e-9, "the gradient differs by the same factor");
        assertTrue(d.worstGradient().startsWith("x["), d.worstGradient());
    }

    @Test
    void identicalEnginesDifferByNothing() throws Exception {
        List<CheckResult> all = run(ALL, TestWorkerMain.standInForCuda(0));
        BackendDifference d = all.get(1).crossBackend();
        assertEquals(0.0, d.maxOutputAbs());
        assertEquals(0.0, d.maxGradientAbs());
    }
}
