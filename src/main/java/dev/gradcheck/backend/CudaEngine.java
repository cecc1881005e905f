package dev.gradcheck.backend;

import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import java.util.Map;

/**
 * ND4J's CUDA backend (nd4j-cuda-11.6, built with {@code mvn -Pcuda}): only in a worker JVM of its own, only where
 * {@link CudaProbe} finds a device its kernels run on.
 */
final class CudaEngine implements EngineSupport {

    @Override
    public Availability probe(boolean inWorkers) {
        if (!inWorkers) {
            return new Availability(false, "cuda: --in-process runs on the cpu backend only (the CUDA backend needs a"
                    + " worker JVM)");
        }
        return CudaProbe.probe();
    }

    /**
     * The given worker on the CUDA engine: ND4J picks the backend with the highest BACKEND_PRIORITY_* (read once
     * per JVM), so the GPU's goes above the CPU's; plus what the probe asks for to pin the device (nothing when
     * the environment's CUDA_VISIBLE_DEVICES already chose, which the worker then inherits).
     */
    @Override
    public WorkerOptions worker(WorkerOptions options, Availability availability) {
        WorkerOptions cuda = options.withEngine(Engine.CUDA).withEnvironment("BACKEND_PRIORITY_GPU", "100")
                .withEnvironment("BACKEND_PRIORITY_CPU", "0");
        for (Map.Entry<String, String> e : availability.environment().entrySet()) {
            cuda = cuda.withEnvironment(e.getKey(), e.getValue());
        }
        return cuda;
    }

    /** One worker for the one device it pins. */
    @Override
    public int lanes(int jobs) {
        return 1;
    }

    /** Another engine that will not start is just not usable here: its checks are skipped, not crashed. */
    @Override
    public Status whenWorkerCannotStart() {
        return Status.SKIPPED;
    }

    /** nd4j-cuda registers {@code org.nd4j.linalg.jcublas.JCublasBackend}. */
    @Override
    public boolean isLoaded(String nd4jBackendClass) {
        return nd4jBackendClass.startsWith("JCublas");
    }
}
