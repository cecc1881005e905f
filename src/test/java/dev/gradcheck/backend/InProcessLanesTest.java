package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Checks side by side in this JVM (a small run's lanes): each lane its own backend and thread, all stopped at once. */
class InProcessLanesTest {

    /** What each check does on its backend: here, wait for the other lanes' checks, or for an interrupt. */
    private interface Body {
        void run(OpSpec spec) throws Exception;
    }

    /** Ends every check PASSED after {@code body}, or ERROR with what it threw; records which backend ran it. */
    private record Fake(int id, Body body, Map<String, Integer> ranOn) implements Backend {
        @Override
        public Engine engine() {
            return Engine.CPU;
        }

        @Override
        public CheckResult run(CheckRequest request) {
            OpSpec spec = request.spec();
            ranOn.put(spec.name(), id);
            Status status = Status.PASSED;
            String message = "";
            try {
                body.run(spec);
            } catch (Exception e) {
                status = Status.ERROR;
                message = e.toString();
            }
            return new CheckResult(spec.name(), "", spec.op().value(), "cpu", "float64", status, "pass", null, message,
                    List.of(), "", 1e-6, 0);
        }

        @Override
        public BackendSample sample(CheckRequest request) {
            return null;
        }
    }

    private static List<Dispatcher.Task> tasks(int n) {
        StringBuilder yaml = new StringBuilder();
        for (int i = 0; i < n; i++) {
            yaml.append("name: c").append(i).append("\nop: tanh\ninputs: {x: {shape: [2]}}\n---\n");
        }
        List<LoadedSpec> specs = new SpecLoader().loadText("d.yaml", "d", yaml.toString());
        List<Dispatcher.Task> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tasks.add(new Dispatcher.Task(i, CheckRequest.of(specs.get(i).spec()), Engine.CPU, false));
        }
        return tasks;
    }

    @Test
    void twoLanesRunTwoChecksAtOnceEachOnABackendOfItsOwn() throws InterruptedException {
        CyclicBarrier both = new CyclicBarrier(2); // a check passes only while another one runs beside it
        AtomicInteger made = new AtomicInteger();
        Map<String, Integer> ranOn = new ConcurrentHashMap<>();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        Body meetTheOther = spec -> {
            threads.add(Thread.currentThread().getName() + "@" + System.identityHashCode(Thread.currentThread()));
            both.await(30, TimeUnit.SECONDS);
        };
        List<String> ended = new ArrayList<>();
        try (InProcessPool pool = new InProcessPool(Engine.CPU, 2,
                () -> new Fake(made.incrementAndGet(), meetTheOther, ranOn))) {
            assertEquals(2, pool.lanes(Engine.CPU).size());
            new Dispatcher(pool).run(tasks(6), (task, result, sample) -> {
                synchronized (ended) {
                    ended.add(result.name() + " " + result.status());
                }
            });
        }
        assertEquals(6, ended.size(), ended.toString());
        assertTrue(ended.stream().allMatch(e -> e.endsWith("PASSED")), "each check met one on the other lane: " + ended);
        assertEquals(2, made.get(), "a backend per lane");
        assertEquals(Set.of(1, 2), Set.copyOf(ranOn.values()), "both lanes' backends checked: " + ranOn);
        assertEquals(2, threads.size(), "each lane checks on a thread of its own: " + threads);
    }

    @Test
    void oneLaneRunsTheChecksOneAfterTheOther() throws InterruptedException {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Body count = spec -> {
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            Thread.sleep(5);
            inFlight.decrementAndGet();
        };
        try (InProcessPool pool = new InProcessPool(Engine.CPU, () -> new Fake(1, count, new ConcurrentHashMap<>()))) {
            new Dispatcher(pool).run(tasks(4), (task, result, sample) -> { });
        }
        assertEquals(1, most.get(), "--in-process: one check at a time");
    }

    @Test
    void abortStopsTheCheckInFlightOnEveryLane() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(2);
        Body untilInterrupted = spec -> {
            started.countDown();
            Thread.sleep(TimeUnit.MINUTES.toMillis(5)); // an evaluation loop that ends when its thread is interrupted
        };
        List<CheckResult> results = java.util.Collections.synchronizedList(new ArrayList<>());
        try (InProcessPool pool = new InProcessPool(Engine.CPU, 2,
                () -> new Fake(0, untilInterrupted, new ConcurrentHashMap<>()))) {
            Dispatcher dispatcher = new Dispatcher(pool);
            Thread run = new Thread(() -> {
                try {
                    dispatcher.run(tasks(2), (task, result, sample) -> results.add(result));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            run.start();
            assertTrue(started.await(30, TimeUnit.SECONDS), "both lanes' checks started");
            dispatcher.stop();
            pool.abort();
            run.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(!run.isAlive(), "both checks stopped");
        }
        assertEquals(2, results.size());
        assertTrue(results.stream().allMatch(r -> r.status() == Status.ERROR && r.message().contains("interrupted")),
                results.toString());
    }

    @Test
    void aSmallRunTakesALanePerProcessorAndNoMoreThanItHasChecks() {
        int processors = Math.min(8, Runtime.getRuntime().availableProcessors());
        assertEquals(1, SharedJvm.lanes(1));
        assertEquals(1, SharedJvm.lanes(0), "a run of invalid specs only still has its lane");
        assertEquals(processors, SharedJvm.lanes(64));
        assertEquals(Math.min(processors, 2), SharedJvm.lanes(2));
    }
}
