package dev.gradcheck.backend;

import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;

/** ND4J's CPU backend (nd4j-native): always there, in every JVM gradcheck starts. */
final class CpuEngine implements EngineSupport {

    @Override
    public Availability probe(boolean inWorkers) {
        return Availability.ALWAYS;
    }

    /**
     * ND4J picks the backend with the highest BACKEND_PRIORITY_* (GPU defaults above CPU, read once per JVM): with
     * nd4j-cuda on the class path (mvn -Pcuda), a CPU worker must say it wants the CPU.
     */
    @Override
    public WorkerOptions worker(WorkerOptions options, Availability availability) {
        return options.withEngine(Engine.CPU).withEnvironment("BACKEND_PRIORITY_CPU", "100")
                .withEnvironment("BACKEND_PRIORITY_GPU", "0");
    }

    /** {@code --jobs} is the number of CPU workers. */
    @Override
    public int lanes(int jobs) {
        return jobs;
    }

    /** A CPU worker that cannot start is gradcheck's problem, not a machine without the engine. */
    @Override
    public Status whenWorkerCannotStart() {
        return Status.CRASHED;
    }

    /** nd4j-native registers {@code org.nd4j.linalg.cpu.nativecpu.CpuBackend}. */
    @Override
    public boolean isLoaded(String nd4jBackendClass) {
        return nd4jBackendClass.equals("CpuBackend");
    }
}
