package dev.gradcheck.backend;

import java.util.function.Supplier;

/**
 * One place a check can run at a time: a backend (a worker JVM, or this JVM), started only when a check needs it
 * and kept for the next, until {@link #close}.
 */
public final class Lane implements AutoCloseable {

    private final Supplier<Backend> factory;
    private Backend backend;

    public Lane(Supplier<Backend> factory) {
        this.factory = factory;
    }

    /** The lane's backend, started now if it was not yet. */
    synchronized Backend backend() {
        if (backend == null) {
            backend = factory.get(); // only pay for an engine when a check needs it
        }
        return backend;
    }

    /** Starts the lane's backend now (a worker JVM: until it is ready), if it is not running. */
    public synchronized void start() {
        backend().start();
    }

    @Override
    public synchronized void close() {
        if (backend != null) {
            backend.close();
            backend = null;
        }
    }
}
