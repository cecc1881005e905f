package dev.gradcheck.backend;

import dev.gradcheck.result.Engine;
import java.util.List;

/**
 * The engines checks run on, with their lanes: owned by whoever runs checks and passed to each run, so that it
 * can outlive one run (a shell keeps one warm worker across many). A lane starts its backend when its first check
 * comes and keeps it until the pool closes; a worker that crashed or timed out is replaced by the next check.
 * One run at a time uses a pool.
 */
public interface EnginePool extends AutoCloseable {

    /** Whether checks can run on the engine here, or why not; probed once, when first asked. */
    Availability availability(Engine engine);

    /** The engine's lanes, each checking one spec at a time; asked only for an available engine. */
    List<Lane> lanes(Engine engine);

    /**
     * Starts the engine's first lane now, rather than when its first check comes (a shell that wants its warm
     * worker ready before the user asks for a check); returns when it is up, or could not start (its first check
     * then says why). A check that comes meanwhile waits for it.
     */
    default void warmUp(Engine engine) {
        if (availability(engine).usable()) {
            List<Lane> lanes = lanes(engine);
            if (!lanes.isEmpty()) {
                lanes.get(0).start();
            }
        }
    }

    /** Ends every check in flight now (Ctrl-C): worker JVMs are killed, not asked to finish. */
    void abort();

    /** Closes every backend the lanes started. */
    @Override
    void close();
}
