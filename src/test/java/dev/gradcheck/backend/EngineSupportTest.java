package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.backend.nd4j.WorkerMain;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.MemoryBudget;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What each engine does differently, from its one class. */
class EngineSupportTest {

    private static final EngineSupport CPU = EngineSupport.of(Engine.CPU);
    private static final EngineSupport CUDA = EngineSupport.of(Engine.CUDA);

    @Test
    void theCudaWorkerIsPinnedToTheProbedDeviceOnlyWhenTheEnvironmentHadNotChosen() {
        WorkerOptions chosen = WorkerOptions.cpu().on(Engine.CUDA,
                new Availability(true, "cuda: device 1", Map.of("CUDA_VISIBLE_DEVICES", "GPU-a100")));
        assertEquals(Engine.CUDA, chosen.engine());
        assertEquals("GPU-a100", chosen.environment().get("CUDA_VISIBLE_DEVICES"));
        assertEquals("100", chosen.environment().get("BACKEND_PRIORITY_GPU"));
        assertEquals("0", chosen.environment().get("BACKEND_PRIORITY_CPU"));
        // an inherited CUDA_VISIBLE_DEVICES: the probe asks for nothing, and the worker inherits the runner's value
        WorkerOptions inherited = WorkerOptions.cpu().on(Engine.CUDA,
                new Availability(true, "cuda: device 0, the first of CUDA_VISIBLE_DEVICES=3"));
        assertFalse(inherited.environment().containsKey("CUDA_VISIBLE_DEVICES"), inherited.environment().toString());
    }

    @Test
    void aCpuWorkerAsksNd4jForTheCpuEvenWithCudaOnTheClassPath() {
        WorkerOptions cpu = WorkerOptions.cpu();
        assertEquals(Engine.CPU, cpu.engine());
        assertEquals("100", cpu.environment().get("BACKEND_PRIORITY_CPU"));
        assertEquals("0", cpu.environment().get("BACKEND_PRIORITY_GPU"));
        assertTrue(cpu.command().contains("-Dgradcheck.backend=cpu"), cpu.command().toString());
        assertTrue(cpu.on(Engine.CUDA, Availability.ALWAYS).command().contains("-Dgradcheck.backend=cuda"));
    }

    @Test
    void workersRunNd4jGraphsOnTheExecutorTheFrontEndWasGiven() {
        String key = dev.gradcheck.op.Nd4jOpBuilder.Executor.PROPERTY;
        assertFalse(WorkerOptions.cpu().command().stream().anyMatch(a -> a.startsWith("-D" + key)), "the default");
        System.setProperty(key, "samediff");
        try {
            assertTrue(WorkerOptions.cpu().command().contains("-D" + key + "=samediff"));
        } finally {
            System.clearProperty(key);
        }
    }

    @Test
    void aWorkerIsToldItsEngineBudgetAndPluginsAtItsStartAndReadsThemThere() {
        WorkerOptions options = WorkerOptions.cpu().on(Engine.CUDA, Availability.ALWAYS).withMaxMemory(10L << 20)
                .withPlugins(List.of(Path.of("/p/a.jar"), Path.of("/p/b")));
        Map<String, String> properties = new HashMap<>();
        for (String arg : options.command()) {
            if (arg.startsWith("-D")) {
                String[] kv = arg.substring(2).split("=", 2);
                properties.put(kv[0], kv[1]);
            }
        }
        WorkerMain.Setup setup = WorkerMain.Setup.from(properties::get);
        assertEquals(Engine.CUDA, setup.engine());
        assertEquals(new MemoryBudget(10L << 20), setup.budget());
        assertEquals(List.of(Path.of("/p/a.jar"), Path.of("/p/b")), setup.plugins());
        WorkerMain.Setup defaults = WorkerMain.Setup.from(name -> null);
        assertEquals(Engine.CPU, defaults.engine());
        assertEquals(MemoryBudget.forThisJvm(), defaults.budget(), "without --max-memory: half the worker's heap");
    }

    /** A worker for one command compiles with C1 only; a session's keeps C2; the user's options come last and win. */
    @Test
    void aWorkersJitFollowsItsLifetimeAndTheUsersOptionsWin() {
        String c1 = "-XX:TieredStopAtLevel=1";
        List<String> oneCommand = WorkerOptions.cpu(WorkerOptions.Lifetime.ONE_COMMAND, null).command();
        assertTrue(oneCommand.indexOf(c1) > 0 && oneCommand.indexOf(c1) < oneCommand.indexOf("-cp"), oneCommand.toString());
        assertFalse(WorkerOptions.cpu(WorkerOptions.Lifetime.SESSION, null).command().contains(c1));
        assertTrue(WorkerOptions.cpu().command().contains(c1), "by default: one command");
        List<String> given = WorkerOptions.cpu(WorkerOptions.Lifetime.ONE_COMMAND,
                "  -XX:TieredStopAtLevel=4   -Xss4m ").command();
        assertTrue(given.indexOf("-XX:TieredStopAtLevel=4") > given.indexOf(c1), "after ours: HotSpot takes the last");
        assertTrue(given.indexOf("-Xss4m") < given.indexOf("-cp"), given.toString());
        assertEquals(List.of(), WorkerOptions.userOptions(null));
        assertEquals(List.of(), WorkerOptions.userOptions(" \t "));
        assertEquals(List.of("-Xmx1g", "-Da=b"), WorkerOptions.userOptions("-Xmx1g \t -Da=b\n"));
    }

    /** The front end's collector (bin/gradcheck's serial one) goes to a worker whose own options choose none. */
    @Test
    void aCollectorIsAnOptionThatChoosesOne() {
        assertTrue(WorkerOptions.choosesCollector("-XX:+UseSerialGC"));
        assertTrue(WorkerOptions.choosesCollector("-XX:+UseG1GC"));
        assertFalse(WorkerOptions.choosesCollector("-XX:+UseCompressedOops"));
        assertFalse(WorkerOptions.choosesCollector("-XX:-UseAdaptiveSizePolicy"));
    }

    /** What bin/gradcheck allows ND4J's libraries on Java 24 and later reaches the worker; other options do not. */
    @Test
    void nativeAccessOptionsAreTheOnesThatAllowIt() {
        assertTrue(WorkerOptions.allowsNativeAccess("--enable-native-access=ALL-UNNAMED"));
        assertTrue(WorkerOptions.allowsNativeAccess("--sun-misc-unsafe-memory-access=allow"));
        assertTrue(WorkerOptions.allowsNativeAccess("--illegal-native-access=deny"));
        assertFalse(WorkerOptions.allowsNativeAccess("--add-opens=java.base/java.io=ALL-UNNAMED"));
        assertFalse(WorkerOptions.allowsNativeAccess("-Dsun.misc.unsafe.memory.access=allow"));
    }

    @Test
    void aCpuWorkerThatCannotStartIsACrashAnotherEngineIsSkipped() {
        assertEquals(Status.CRASHED, CPU.whenWorkerCannotStart());
        assertEquals(Status.SKIPPED, CUDA.whenWorkerCannotStart());
    }

    @Test
    void eachEngineRecognisesItsNd4jBackendAndNoOther() {
        assertTrue(CPU.isLoaded("CpuBackend"));
        assertFalse(CPU.isLoaded("JCublasBackend"));
        assertTrue(CUDA.isLoaded("JCublasBackend"));
        assertFalse(CUDA.isLoaded("CpuBackend"));
    }

    @Test
    void theCpuIsAlwaysThereCudaNeedsAWorker() {
        assertTrue(CPU.probe(false).usable());
        Availability inProcess = CUDA.probe(false);
        assertFalse(inProcess.usable());
        assertTrue(inProcess.message().contains("--in-process runs on the cpu backend only"), inProcess.message());
    }

    @Test
    void jobsCountCpuWorkersOneCudaWorker() {
        assertEquals(3, CPU.lanes(3));
        assertEquals(1, CUDA.lanes(3));
    }
}
