package dev.gradcheck.check.numeric;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A count of function evaluations, threaded through the Jacobian builders; shared by the copies of a side that
 * evaluate on other threads, so the count is the same whatever the thread count.
 */
public final class Counter {
    private final AtomicLong value = new AtomicLong();

    public void add(long n) {
        value.addAndGet(n);
    }

    public long value() {
        return value.get();
    }
}
