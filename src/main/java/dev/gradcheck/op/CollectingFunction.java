package dev.gradcheck.op;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.bytedeco.javacpp.Pointer;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A function that keeps the native memory its calls leave behind within a limit, passing every call on unchanged.
 * ND4J's arrays live outside the Java heap behind small Java objects, and are freed only when the garbage collector
 * finds those objects: a call that makes megabytes of native arrays (a DL4J output layer of 64x1024 -> 1000 makes
 * about 4 MB per forward) fills the heap so slowly that the native garbage grew to 18.2 GB before one collection
 * ran, under a --max-memory of 2.9 GiB (docs/benchmarks-scale.md, "What --max-memory bounds"). After each call,
 * at most every {@link #READ_EVERY_NANOS}, the process's resident memory outside the committed heap is read; where it
 * has grown by more than the limit above the least read since the last collection, the collector runs (ND4J frees
 * what it found on its own threads). What the check holds alive is not garbage, and it is not collected: the limit is
 * counted from what was left after the last collection. Copies (other threads) share one guard. What one call makes
 * before it returns no collection can reach: the guard's {@link CallGate} measures it, lets calls run side by side
 * only while they fit half the budget together, and stops the check ({@link CallOverBudget}) where one call alone
 * took more than the budget.
 */
public final class CollectingFunction extends ForwardingFunction {

    /** Reading /proc/self/statm costs ~10 µs: at most once per this many nanoseconds, whatever the calls' pace. */
    static final long READ_EVERY_NANOS = 10_000_000L;

    /** One check's guard, shared by the copies of its functions. */
    public static final class Guard {
        private final long limit;
        private final long readEvery;
        private final AtomicLong lastRead;
        /**
         * The least resident memory outside the heap read since the last collection: what the check holds alive.
         * ND4J frees what a collection found on its own threads, after it: the reads after it bring this down.
         */
        private final AtomicLong floor;
        private final AtomicLong collections = new AtomicLong();
        private final CallGate calls;
        /** Calls since the last collection: where there were none, there is no garbage to collect. */
        private final AtomicLong callsSinceCollection = new AtomicLong();

        /** Below this, collections would run more often than the calls they follow (a 64 MiB floor). */
        static final long LEAST_GARBAGE = 64L << 20;

        /**
         * The guard of a check under a memory budget: a quarter of it, at least {@value #LEAST_GARBAGE} bytes, may
         * be native garbage between collections, so that what the check holds and what it has let go of stay within
         * --max-memory and the JVM's own heap.
         */
        public static Guard within(long budgetBytes) {
            return new Guard(Math.max(LEAST_GARBAGE, budgetBytes / 4), READ_EVERY_NANOS, budgetBytes);
        }

        /** @param limit the native garbage let grow between collections, in bytes; calls under no budget */
        public Guard(long limit) {
            this(limit, READ_EVERY_NANOS, Long.MAX_VALUE);
        }

        /** @param readEvery the least nanoseconds between two reads of the resident size; calls under no budget */
        Guard(long limit, long readEvery) {
            this(limit, readEvery, Long.MAX_VALUE);
        }

        /**
         * @param readEvery the least nanoseconds between two reads of the resident size
         * @param budget    the check's --max-memory: what one call may take, and calls at once half of it
         *                  ({@link CallGate})
         */
        Guard(long limit, long readEvery, long budget) {
            this(limit, readEvery, new CallGate(budget, readEvery));
        }

        /** @param calls the gate, with its own meter in a test */
        Guard(long limit, long readEvery, CallGate calls) {
            this.limit = limit;
            this.readEvery = readEvery;
            this.calls = calls;
            Outside start = Outside.recent(readEvery);
            this.floor = new AtomicLong(start.bytes());
            this.lastRead = new AtomicLong(start.at());
        }

        /**
         * One reading of the resident memory outside the heap, and when it was taken. The last one is shared by
         * every check's guard: a guard started within its {@code readEvery} of another's reading starts from that
         * one, and reads next when that much time has passed, as its own reading would have it. Each guard read
         * the file as it started and again after its first call: two reads of /proc/self/statm (~10 µs each) in
         * every fast check of a few hundred microseconds (2026-11-29).
         */
        private record Outside(long at, long bytes) {
            private static final java.util.concurrent.atomic.AtomicReference<Outside> LAST =
                    new java.util.concurrent.atomic.AtomicReference<>(new Outside(System.nanoTime() - Long.MAX_VALUE / 2,
                            0));

            static Outside read() {
                Outside now = new Outside(System.nanoTime(), outsideHeap());
                LAST.set(now);
                return now;
            }

            /** The last reading where it is younger than {@code readEvery}; a new one otherwise. */
            static Outside recent(long readEvery) {
                Outside last = LAST.get();
                return System.nanoTime() - last.at() < readEvery ? last : read();
            }
        }

        /** How many collections this guard ran. */
        public long collections() {
            return collections.get();
        }

        /** What lets the calls in and measures them. */
        CallGate calls() {
            return calls;
        }

        /**
         * Before a call of a kind measured to make more than the limit by itself (it runs alone, or beside small
         * ones): the garbage the calls before it left is collected first, else the two together would pass the
         * limit (LocallyConnected2D: 0.7 GB of forwards' garbage under the limit, then a 1.5 GB backward on it).
         */
        void beforeCall(CallGate.Kind kind) {
            if (calls.need(kind) > limit && callsSinceCollection.get() > 0) {
                collect();
            }
        }

        /**
         * After a call of the kind ({@code took}: what it was measured to take, or {@link CallGate#UNKNOWN}): a
         * collection where the native garbage grew past the limit, and always after a call, or a kind of call,
         * measured to make more than the limit by itself. Such a call's arrays were alive, not garbage,
         * while a collection beside it (another thread's call) set the floor: counted from that floor, they would
         * be let grow to the limit again on top of it (LocallyConnected2D: 3.4 GB where one backward makes 1.5 GB).
         */
        void afterCall(CallGate.Kind kind, long took) {
            callsSinceCollection.incrementAndGet();
            if (Math.max(took, calls.need(kind)) > limit) {
                lastRead.set(System.nanoTime());
                collect();
                return;
            }
            long now = System.nanoTime();
            long last = lastRead.get();
            if (now - last < readEvery || !lastRead.compareAndSet(last, now)) {
                return;
            }
            long outside = Outside.read().bytes();
            long least = floor.accumulateAndGet(outside, Math::min);
            if (outside - least > limit) {
                collect();
            }
        }

        private void collect() {
            callsSinceCollection.set(0);
            System.gc();
            collections.incrementAndGet();
            floor.set(Outside.read().bytes());
        }

        /** The process's resident memory less the heap the JVM has committed: mostly ND4J's arrays. */
        private static long outsideHeap() {
            return Pointer.physicalBytes() - Runtime.getRuntime().totalMemory();
        }
    }

    private final Guard guard;

    /** @param f its calls measured from what earlier checks measured of it, where it keeps that ({@link CallSizes}) */
    public CollectingFunction(Differentiable f, Guard guard) {
        super(f, copy -> new CollectingFunction(copy, guard));
        this.guard = guard;
        f.callSizes().ifPresent(guard.calls::adopt);
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
        return call(CallGate.Kind.FORWARD, () -> f.forward(inputs));
    }

    @Override
    public Map<String, INDArray> forwardTransient(Map<String, INDArray> inputs) {
        return call(CallGate.Kind.FORWARD, () -> f.forwardTransient(inputs));
    }

    @Override
    public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                     List<String> wrt) {
        return call(CallGate.Kind.BACKWARD, () -> f.vjp(inputs, cotangents, wrt));
    }

    @Override
    public Map<String, INDArray> vjpTransient(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                              List<String> wrt) {
        return call(CallGate.Kind.BACKWARD, () -> f.vjpTransient(inputs, cotangents, wrt));
    }

    /**
     * The call, let in by the guard's {@link CallGate} beside the calls running, and what it gave once the guard has
     * measured it and looked at what it left behind (collecting it, where that is due, before another call is let
     * in).
     *
     * @throws CallOverBudget where this call or an earlier one took more than the budget by itself
     */
    private Map<String, INDArray> call(CallGate.Kind kind, Supplier<Map<String, INDArray>> call) {
        CallGate.Ticket ticket = guard.calls.enter(kind);
        Map<String, INDArray> out;
        long took = CallGate.UNKNOWN;
        try {
            guard.beforeCall(kind);
            out = call.get();
            took = guard.calls.measure(ticket);
        } finally {
            try {
                guard.afterCall(kind, took); // before the next call comes in: its arrays would meet this one's garbage
            } finally {
                guard.calls.leave(ticket, took);
            }
        }
        guard.calls.requireWithin();
        return out;
    }
}
