package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.MemoryBudget;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * What one call of a function takes is measured (its first call runs alone), calls that together would pass half the
 * budget run one at a time, and a call that took more than the whole budget stops the check, before any later call.
 */
class CallGateTest {

    private static final long MIB = 1L << 20;

    /**
     * The memory the gate reads in these tests: what the calls made, counted by them. The process's own resident size
     * in a test JVM moves with what earlier tests left (freed while a call runs): the gate's rules are tested on this
     * count, its reading of the system by the layer refused end to end below.
     */
    private final java.util.concurrent.atomic.AtomicLong made = new java.util.concurrent.atomic.AtomicLong();

    private CollectingFunction.Guard guard(long limit, long readEvery, long budget) {
        return new CollectingFunction.Guard(limit, readEvery, new CallGate(budget, readEvery,
                () -> new CallGate.Reading(made.get(), 0)));
    }

    /**
     * Earlier tests' native garbage, freed in the middle of a measured call (JavaCPP runs the collector when its
     * count nears the heap's size), would hide that call's growth: collected first.
     */
    @BeforeEach
    void collectEarlierGarbage() {
        System.gc();
    }

    /**
     * A backward that makes (and touches) an array of {@code bytes} and keeps it until it returns; while in a call,
     * it waits until the other caller is in a call too, waits at the gate, or is done, so that two callers meet.
     */
    private static final class Meeting implements Differentiable {
        private final long bytes;
        private final AtomicInteger inCall;
        private final AtomicInteger most;
        private final AtomicInteger done;
        private final CallGate gate;
        private final AtomicInteger calls = new AtomicInteger();
        private final java.util.concurrent.atomic.AtomicLong counted;

        Meeting(long bytes, AtomicInteger inCall, AtomicInteger most, AtomicInteger done, CallGate gate,
                java.util.concurrent.atomic.AtomicLong counted) {
            this.counted = counted;
            this.bytes = bytes;
            this.inCall = inCall;
            this.most = most;
            this.done = done;
            this.gate = gate;
        }

        @Override
        public List<String> inputNames() {
            return List.of("x");
        }

        @Override
        public List<String> outputNames() {
            return List.of("y");
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
            return Map.of("y", inputs.get("x"));
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                         List<String> wrt) {
            calls.incrementAndGet();
            counted.addAndGet(bytes);
            INDArray made = Nd4j.create(DataType.DOUBLE, bytes / Double.BYTES).assign(1.0);
            most.accumulateAndGet(inCall.incrementAndGet(), Math::max);
            // a caller waiting at the gate ends the wait only where the gate would not let it in now: one it would
            // admit may still be waking, and leaving then let the first caller make all its calls alone
            while (gate != null && inCall.get() < 2 && !(gate.waiting() > 0 && !gate.wouldAdmit(CallGate.Kind.BACKWARD))
                    && done.get() == 0) {
                Thread.onSpinWait(); // the other caller's next step, not a time, ends the wait
            }
            most.accumulateAndGet(inCall.get(), Math::max);
            inCall.decrementAndGet();
            return Map.of("x", made.getScalar(0));
        }
    }

    private static Map<String, INDArray> backward(Differentiable f) {
        Map<String, INDArray> x = Map.of("x", Nd4j.scalar(1.0));
        return f.vjp(x, Map.of("y", Nd4j.scalar(1.0)), List.of("x"));
    }

    /** The largest number of calls that were in {@code f} at once, two threads making four backwards each. */
    private int mostAtOnce(long bytes, long budget) throws Exception {
        // garbage let grow to the whole budget: no collection after each call slows the test
        CollectingFunction.Guard guard = guard(budget, 0, budget);
        AtomicInteger inCall = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Callable<Void> caller = () -> {
                CollectingFunction f = new CollectingFunction(new Meeting(bytes, inCall, most, done,
                        guard.calls(), made), guard);
                for (int k = 0; k < 4; k++) {
                    backward(f);
                }
                done.incrementAndGet();
                return null;
            };
            Future<Void> one = pool.submit(caller);
            Future<Void> other = pool.submit(caller);
            one.get();
            other.get();
        } finally {
            pool.shutdown();
        }
        assertTrue(bytes < 32 * MIB || guard.calls().need(CallGate.Kind.BACKWARD) >= bytes / 2, "measured: "
                + guard.calls().need(CallGate.Kind.BACKWARD)); // a small call's growth is lost in the JVM's own
        return most.get();
    }

    /**
     * The heap the JVM commits while a call runs is the whole process's Java objects, not the call's: counted, a
     * forward of a 1000x1000 graph in the suite's JVM read 1.3 GiB and its spec was refused (ErrorBoundsTest).
     */
    @Test
    void theHeapCommittedDuringACallIsNotCountedAsTheCalls() {
        CallGate.Reading before = new CallGate.Reading(1000 * MIB, 1000 * MIB, 500 * MIB, 100 * MIB);
        assertEquals(0, before.grownBy(new CallGate.Reading(2300 * MIB, 2300 * MIB, 1800 * MIB, 1400 * MIB)));
        assertEquals(200 * MIB, before.grownBy(new CallGate.Reading(2500 * MIB, 2500 * MIB, 1800 * MIB, 900 * MIB)),
                "native growth beside it still counts");
        assertEquals(0, before.grownBy(new CallGate.Reading(1300 * MIB, 1300 * MIB, 500 * MIB, 400 * MIB)),
                "heap pages committed before and first touched in the call are the heap's too");
        assertEquals(700 * MIB, before.grownBy(new CallGate.Reading(1200 * MIB, 1700 * MIB, 500 * MIB, 100 * MIB)),
                "a peak reached inside the call and left counts, the heap unchanged");
    }

    @Test
    void callsTooLargeForHalfTheBudgetTogetherRunOneAtATime() throws Exception {
        // 96 MiB each: two make 192 MiB, over half of 256 MiB
        assertEquals(1, mostAtOnce(96 * MIB, 256 * MIB));
    }

    @Test
    void smallCallsRunSideBySide() throws Exception {
        assertEquals(2, mostAtOnce(MIB, 256 * MIB));
    }

    @Test
    void aCallOverTheWholeBudgetStopsTheCheckBeforeTheNextCall() {
        CollectingFunction.Guard guard = guard(64 * MIB, 0, 64 * MIB);
        Meeting inner = new Meeting(160 * MIB, new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), null,
                made);
        CollectingFunction f = new CollectingFunction(inner, guard);
        CallOverBudget first = assertThrows(CallOverBudget.class, () -> backward(f));
        assertEquals("backward", first.kind());
        assertTrue(first.needed() > 64 * MIB, "measured " + first.needed());
        assertThrows(CallOverBudget.class, () -> f.forward(Map.of("x", Nd4j.scalar(1.0))));
        assertThrows(CallOverBudget.class, () -> backward(f));
        assertEquals(1, inner.calls.get(), "no call after the one over the budget");
    }

    /** A function with sizes kept from check to check, as a {@link FunctionCache} keeps them with a lent function. */
    private static Differentiable keeping(Differentiable f, CallSizes sizes) {
        return new ForwardingFunction(f) {
            @Override
            public java.util.Optional<CallSizes> callSizes() {
                return java.util.Optional.of(sizes);
            }
        };
    }

    /**
     * A later check of a kept function starts from what the first measured: a call's growth shows on its first run
     * only (later runs reuse what the allocator kept), so measuring it again would read less, and each reading
     * costs a small check a tenth of its time.
     */
    @Test
    void aLaterCheckOfAKeptFunctionStartsFromItsMeasuredSizesWithoutReadingAgain() {
        CallSizes sizes = new CallSizes();
        AtomicInteger reads = new AtomicInteger();
        java.util.function.Supplier<CollectingFunction.Guard> check = () -> new CollectingFunction.Guard(1024 * MIB,
                Long.MAX_VALUE / 4, new CallGate(1024 * MIB, Long.MAX_VALUE / 4, () -> {
                    reads.incrementAndGet();
                    return new CallGate.Reading(made.get(), 0);
                }));
        Meeting inner = new Meeting(3 * MIB, new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), null, made);
        CollectingFunction.Guard first = check.get();
        backward(new CollectingFunction(keeping(inner, sizes), first));
        assertEquals(2, reads.get(), "the first backward measured: before and after");
        assertEquals(3 * MIB, sizes.need(CallGate.Kind.BACKWARD), "kept with the function");
        CollectingFunction.Guard second = check.get();
        backward(new CollectingFunction(keeping(inner, sizes), second));
        assertEquals(2, reads.get(), "the next check's first backward is known: not read again");
        assertEquals(3 * MIB, second.calls().need(CallGate.Kind.BACKWARD));
        backward(new CollectingFunction(inner, check.get()));
        assertEquals(4, reads.get(), "a function that keeps nothing is measured in every check");
    }

    @Test
    void aKeptFunctionOnceOverTheBudgetIsRefusedInTheNextCheckBeforeItsFirstCall() {
        CallSizes sizes = new CallSizes();
        Meeting inner = new Meeting(160 * MIB, new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), null,
                made);
        CollectingFunction first = new CollectingFunction(keeping(inner, sizes), guard(64 * MIB, 0, 64 * MIB));
        long needed = assertThrows(CallOverBudget.class, () -> backward(first)).needed();
        CollectingFunction next = new CollectingFunction(keeping(inner, sizes), guard(64 * MIB, 0, 64 * MIB));
        CallOverBudget again = assertThrows(CallOverBudget.class, () -> backward(next));
        assertEquals(needed, again.needed(), "the same figure");
        assertEquals("backward", again.kind());
        assertEquals(1, inner.calls.get(), "refused before the call, as the first check refused every later one");
        backward(new CollectingFunction(keeping(inner, sizes), guard(1024 * MIB, 0, 1024 * MIB)));
        assertEquals(2, inner.calls.get(), "a budget that holds it lets it run");
    }

    /**
     * Two checks side by side in one JVM (a small run's lanes) read the same process: a measured call of one waits
     * until no call of the other runs, and the other's calls wait for it. Else a 3 GiB call of check B, made while A's
     * first call was measured, would be A's 3 GiB: over A's 1 GiB budget, A would be refused though its calls take
     * 10 MiB.
     */
    @Test
    void aMeasuredCallCountsNoCallOfAnotherCheckMadeBesideIt() throws Exception {
        CallGate.ProcessCalls calls = new CallGate.ProcessCalls();
        java.util.function.Supplier<CallGate.Reading> process = () -> new CallGate.Reading(made.get(), 0);
        CallGate a = new CallGate(1024 * MIB, Long.MAX_VALUE / 4, process, calls);
        CallGate b = new CallGate(4096 * MIB, Long.MAX_VALUE / 4, process, calls);
        CallGate.Ticket first = b.enter(CallGate.Kind.BACKWARD); // B's first call is measured: small
        made.addAndGet(MIB);
        b.leave(first, b.measure(first));
        CallGate.Ticket bigB = b.enter(CallGate.Kind.BACKWARD); // known now, not measured: it runs beside others
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.CountDownLatch aIn = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch aGo = new java.util.concurrent.CountDownLatch(1);
            Future<?> aCall = pool.submit(() -> { // A's first call, measured: 10 MiB of its own
                CallGate.Ticket t = a.enter(CallGate.Kind.BACKWARD);
                aIn.countDown();
                aGo.await();
                made.addAndGet(10 * MIB);
                a.leave(t, a.measure(t));
                return null;
            });
            awaitQueued(calls, 1);
            assertEquals(1, aIn.getCount(), "A's measured call waits while B's call runs");
            made.addAndGet(3072 * MIB); // B's call makes 3 GiB, and keeps them past its end (garbage not collected)
            b.leave(bigB, b.measure(bigB));
            assertTrue(aIn.await(30, java.util.concurrent.TimeUnit.SECONDS));
            Future<?> bCall = pool.submit(() -> {
                CallGate.Ticket t = b.enter(CallGate.Kind.BACKWARD);
                b.leave(t, b.measure(t));
                return null;
            });
            awaitQueued(calls, 1);
            assertTrue(!bCall.isDone(), "B's calls wait while A's call is measured");
            aGo.countDown();
            aCall.get(30, java.util.concurrent.TimeUnit.SECONDS);
            bCall.get(30, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        a.requireWithin();
        assertEquals(10 * MIB, a.need(CallGate.Kind.BACKWARD), "A's own call, none of B's");
        assertEquals(0, calls.waiting(), "every call let the others go");
    }

    private static void awaitQueued(CallGate.ProcessCalls calls, int threads) throws InterruptedException {
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (calls.waiting() < threads && System.nanoTime() < until) {
            Thread.sleep(1);
        }
        assertEquals(threads, calls.waiting(), "a call waits for the other gate's");
    }

    /** Under the refusal floor a reading over the budget is not a call's: the JVM's own growth reaches it. */
    @Test
    void aReadingUnderTheRefusalFloorRefusesNothing() {
        long[] resident = {0};
        CallGate gate = new CallGate(4 * MIB, 0, () -> new CallGate.Reading(resident[0], 0));
        CallGate.Ticket t = gate.enter(CallGate.Kind.BACKWARD);
        resident[0] += 70 * MIB; // what a busy test JVM's matmul backward once read under a 3.5 MiB budget
        gate.leave(t, gate.measure(t));
        gate.requireWithin();
        t = gate.enter(CallGate.Kind.BACKWARD);
        resident[0] += CallGate.REFUSAL_FLOOR + MIB;
        gate.leave(t, gate.measure(t));
        assertThrows(CallOverBudget.class, gate::requireWithin, "over the floor and the budget");
    }

    @Test
    void theSameCallUnderABudgetThatHoldsItRuns() {
        CollectingFunction.Guard guard = guard(1024 * MIB, 0, 1024 * MIB);
        CollectingFunction f = new CollectingFunction(new Meeting(160 * MIB, new AtomicInteger(), new AtomicInteger(),
                new AtomicInteger(), null, made), guard);
        backward(f);
        backward(f);
        assertTrue(guard.calls().need(CallGate.Kind.BACKWARD) >= 128 * MIB);
    }

    @Test
    void aCallMeasuredLargerThanTheGarbageLimitIsCollectedAfterEveryTime() {
        // the resident size is read once (the first call's measurement): only the calls' measured size can ask
        CollectingFunction.Guard guard = guard(64 * MIB, Long.MAX_VALUE / 4, 1024 * MIB);
        CollectingFunction f = new CollectingFunction(new Meeting(96 * MIB, new AtomicInteger(), new AtomicInteger(),
                new AtomicInteger(), null, made), guard);
        backward(f);
        backward(f);
        backward(f);
        assertEquals(3, guard.collections());
    }

    @Test
    void theGarbageOfSmallCallsIsCollectedBeforeALargeOne() {
        CollectingFunction.Guard guard = guard(64 * MIB, Long.MAX_VALUE / 4, 1024 * MIB);
        CollectingFunction f = new CollectingFunction(new Meeting(96 * MIB, new AtomicInteger(), new AtomicInteger(),
                new AtomicInteger(), null, made), guard);
        backward(f);
        assertEquals(1, guard.collections(), "after the first, measured larger than the limit");
        f.forward(Map.of("x", Nd4j.scalar(1.0)));
        assertEquals(1, guard.collections(), "a small call: no collection of its own");
        backward(f);
        assertEquals(3, guard.collections(), "before the large call (the small one's garbage) and after it");
    }

    @Test
    void aLayerWhoseOneBackwardPassesTheBudgetIsRefusedWithTheFigureThatWouldFit() throws Exception {
        // LocallyConnected2D's backward writes a full-size input gradient per output position: 196 of 400 KB here,
        // and their running sums, over 150 MB in one call, while its inputs and fast mode's arrays fit in 64 MiB.
        // In a JVM of its own, as a user runs it: a call is measured by what it grows the process by, and in the
        // suite's JVM, after gigabytes of earlier tests, its first run reused memory the allocator kept (the fresh
        // clone's suites at 3ddd8fe and ed54674 read it as FAILED, not refused).
        java.nio.file.Path spec = java.nio.file.Files.createTempFile("lc2d-one-call-over", ".yaml");
        java.nio.file.Files.writeString(spec, """
                name: lc2d-one-call-over
                layer: {type: LocallyConnected2D, nOut: 16, kernel: [2, 2], stride: [2, 2], activation: tanh}
                inputs:
                  x: {shape: [4, 16, 28, 28]}
                mode: fast
                """);
        String javaBin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(javaBin, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                "dev.gradcheck.cli.Main", "check", "--in-process", "--max-memory", "64m", spec.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.waitFor();
        java.nio.file.Files.deleteIfExists(spec);
        String flat = out.replaceAll("\\s+", " ");
        assertTrue(flat.contains("refused: one backward call of LocallyConnected2D"), out);
        assertTrue(flat.matches(".*over the memory limit of 64\\.0 MiB.*--max-memory \\d+(\\.\\d)?m would"
                + " let its calls run one at a time.*"), out);
    }
}
