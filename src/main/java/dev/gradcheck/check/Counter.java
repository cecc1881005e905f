package dev.gradcheck.check;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A count of function evaluations, threaded through the Jacobian builders; shared by the copies of a side that
 * evaluate on other threads, so the count is the same whatever the thread count.
 */
final class Counter {
    private final AtomicLong value = new AtomicLong();

    void add(long n) {
        value.addAndGet(n);
    }

    long value() {
        return value.get();
    }
}
