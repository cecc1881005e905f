package dev.gradcheck.check.numeric;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A count of function evaluations, threaded through the Jacobian builders; shared by the copies of a side that
 * evaluate on other threads, so the count is the same whatever the thread count.
 */
public final class Counter {
    private final AtomicLong value = new AtomicLong();

    /**
     * Counts {@code n} evaluations just made; ends the check here when its thread was interrupted (its time limit
     * passed, {@code --in-process}), since every evaluation of a check is counted, on its thread or a helper's that
     * stops with it, so an interrupted check stops within one evaluation.
     *
     * @throws CancellationException when the calling thread was interrupted
     */
    public void add(long n) {
        value.addAndGet(n);
        if (Thread.currentThread().isInterrupted()) {
            throw new CancellationException("the check was stopped (interrupted: its time limit passed)");
        }
    }

    public long value() {
        return value.get();
    }
}
