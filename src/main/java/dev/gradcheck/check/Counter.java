package dev.gradcheck.check;

/** A mutable count of function evaluations, threaded through the Jacobian builders. */
final class Counter {
    private long value;

    void add(long n) {
        value += n;
    }

    long value() {
        return value;
    }
}
