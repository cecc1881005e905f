package dev.gradcheck.check.numeric;

import java.util.function.LongSupplier;

/**
 * What a step of a check costs, taken in one place: started before the step, read after it, it gives the
 * evaluations its counter saw go up and the wall time in between. A report row's evaluations and seconds are the
 * sum of its steps' costs.
 */
public final class Meter {

    /**
     * What a step cost.
     *
     * @param evaluations forward evaluations and backward passes
     * @param seconds     wall time
     */
    public record Cost(long evaluations, double seconds) {

        public Cost plus(Cost other) {
            return new Cost(evaluations + other.evaluations, seconds + other.seconds);
        }

        public Cost plusEvaluations(long more) {
            return new Cost(evaluations + more, seconds);
        }
    }

    private final LongSupplier count;
    private final long countBefore;
    private final long start;

    private Meter(LongSupplier count) {
        this.count = count;
        this.countBefore = count.getAsLong();
        this.start = System.nanoTime();
    }

    /** A meter that counts what {@code count} counts (a {@link Counter}, a derivative's evaluations) from now. */
    public static Meter counting(LongSupplier count) {
        return new Meter(count);
    }

    /** A meter of time alone (a step whose evaluations are counted elsewhere, or known: a backward pass is 1). */
    public static Meter timing() {
        return new Meter(() -> 0);
    }

    /** The step's cost so far: the evaluations counted since the start, and the seconds. */
    public Cost cost() {
        return new Cost(count.getAsLong() - countBefore, (System.nanoTime() - start) / 1e9);
    }

    /** The seconds since the start. */
    public double seconds() {
        return nanos() / 1e9;
    }

    /** The nanoseconds since the start (for sums and comparisons in whole nanoseconds). */
    public long nanos() {
        return System.nanoTime() - start;
    }
}
