package dev.gradcheck.backend;

import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;

/**
 * What gradcheck does differently per engine, in one place: whether it can run here, how a worker JVM is started
 * on it, what a check ends as when that worker cannot start, and how a worker recognises that ND4J really loaded
 * it. A new engine is a constant in {@link Engine}, one class implementing this, and its arm in {@link #of}.
 */
public interface EngineSupport {

    /** The class behind each engine: the one switch a new engine adds an arm to. */
    static EngineSupport of(Engine engine) {
        return switch (engine) {
            case CPU -> new CpuEngine();
            case CUDA -> new CudaEngine();
        };
    }

    /**
     * Whether checks can run on this engine here, or why not; asked once per run, before any worker starts.
     *
     * @param inWorkers whether checks run in worker JVMs (false: all in the front end's JVM, {@code --in-process})
     */
    Availability probe(boolean inWorkers);

    /**
     * Options for a worker JVM on this engine.
     *
     * @param options      how workers are started (JVM, class path, plugins, limits), for whatever engine
     * @param availability what {@link #probe} found (the device to pin)
     */
    WorkerOptions worker(WorkerOptions options, Availability availability);

    /** How many worker JVMs check side by side on this engine, given {@code --jobs}. */
    int lanes(int jobs);

    /** What a check ends as when this engine's worker cannot start at all. */
    Status whenWorkerCannotStart();

    /**
     * Whether ND4J, having loaded the backend class of this simple name, computes on this engine. ND4J falls back
     * to another engine with only a warning, and a worker must not report one engine's numbers as another's.
     */
    boolean isLoaded(String nd4jBackendClass);
}
