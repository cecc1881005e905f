package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.backend.nd4j.InProcessBackend;
import dev.gradcheck.check.Functions;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.Overrides;
import dev.gradcheck.spec.SpecLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.ndarray.INDArray;

/** {@code --in-process} keeps time limits as workers do: past its limit a check ends as TIMEOUT and the run goes on. */
class InProcessTimeLimitTest {

    private static final Nd4jOpBuilder ND4J = new Nd4jOpBuilder(OpCatalog.nd4j());
    /** 600 forward evaluations of 20 ms each at least: about 12 s, far past the 1 s limit. */
    private static final int SLOW_FORWARDS = 600;

    /** "slow" is tanh whose every forward takes 20 ms more, counted; everything else is ND4J's. */
    private static Backend engine(AtomicInteger slowForwards) {
        return new InProcessBackend(Engine.CPU, (spec, in) -> spec.name().equals("slow")
                ? slow(ND4J.build(spec, in), slowForwards) : ND4J.build(spec, in), MemoryBudget.forThisJvm());
    }

    /** "stuck" is tanh whose forward does not return until released, whatever interrupts it: a kernel that hangs. */
    private static Backend stuckEngine(CountDownLatch release) {
        return new InProcessBackend(Engine.CPU, (spec, in) -> spec.name().equals("stuck")
                ? stuck(ND4J.build(spec, in), release) : ND4J.build(spec, in), MemoryBudget.forThisJvm());
    }

    private static Differentiable stuck(Differentiable f, CountDownLatch release) {
        return new Functions.Delegate(f) {
            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
                return forwardTransient(inputs);
            }

            @Override
            public Map<String, INDArray> forwardTransient(Map<String, INDArray> inputs) {
                boolean released = false;
                while (!released) {
                    try {
                        released = release.await(1, TimeUnit.MINUTES);
                    } catch (InterruptedException e) {
                        // a native kernel does not hear interrupts either
                    }
                }
                return super.forward(inputs);
            }
        };
    }

    private static Differentiable slow(Differentiable f, AtomicInteger forwards) {
        return new Functions.Delegate(f) {
            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
                return forwardTransient(inputs);
            }

            @Override
            public Map<String, INDArray> forwardTransient(Map<String, INDArray> inputs) {
                forwards.incrementAndGet();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // a slow op, not a timed assertion
                return super.forward(inputs);
            }
        };
    }

    private static List<LoadedSpec> specs(String timeout) {
        return new SpecLoader().loadText("t.yaml", "t", """
                name: slow
                op: tanh
                compress: false
                %s
                inputs: {x: {shape: [%d]}}
                ---
                name: after
                op: tanh
                inputs: {x: {shape: [3]}}
                """.formatted(timeout, SLOW_FORWARDS / 2));
    }

    private static List<CheckResult> run(List<LoadedSpec> specs, TimeLimits limits, AtomicInteger slowForwards) {
        try (InProcessPool pool = new InProcessPool(Engine.CPU, () -> engine(slowForwards))) {
            Backend backend = pool.lanes(Engine.CPU).get(0).backend();
            return specs.stream().map(s -> backend.run(new CheckRequest(s.spec(), Overrides.NONE, limits))).toList();
        }
    }

    @Test
    void aCheckPastItsLimitTimesOutStopsAndTheNextCheckRuns() {
        AtomicInteger slowForwards = new AtomicInteger();
        List<CheckResult> results = run(specs(""), new TimeLimits(1.0), slowForwards);
        assertEquals(List.of(Status.TIMEOUT, Status.PASSED), results.stream().map(CheckResult::status).toList(),
                results::toString);
        assertEquals("timed out after 1 s (--timeout)", results.get(0).message(), "a worker's words");
        // the next check started only once the timed-out one had stopped, at its next evaluation, long before its
        // 600 forwards: without the stop, the check would have run them all first
        int made = slowForwards.get();
        assertTrue(made > 0 && made < SLOW_FORWARDS, made + " slow forwards");
    }

    @Test
    void aCheckThatCannotBeStoppedHandsARunInTheFrontEndsJvmToWorkers(@TempDir Path offer) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<Integer> halted = new ArrayList<>();
        System.setProperty(SharedJvm.OFFER_PROPERTY, offer.toString());
        System.setProperty("gradcheck.onejvm.stuck.seconds", "1");
        SharedJvm.halt = code -> {
            halted.add(code);
            throw new IllegalStateException("halted"); // as Runtime.halt, the run goes no further
        };
        List<LoadedSpec> specs = new SpecLoader().loadText("t.yaml", "t", """
                name: stuck
                op: tanh
                inputs: {x: {shape: [3]}}
                ---
                name: after
                op: tanh
                inputs: {x: {shape: [3]}}
                """);
        try (InProcessPool pool = new InProcessPool(Engine.CPU, () -> stuckEngine(release))) {
            assertTrue(SharedJvm.take(specs, null, false));
            Backend backend = pool.lanes(Engine.CPU).get(0).backend();
            TimeLimits limits = new TimeLimits(1.0);
            assertEquals(Status.TIMEOUT, backend.run(new CheckRequest(specs.get(0).spec(), Overrides.NONE, limits))
                    .status());
            CheckRequest next = new CheckRequest(specs.get(1).spec(), Overrides.NONE, limits);
            assertThrows(IllegalStateException.class, () -> backend.run(next));
            assertEquals(List.of(SharedJvm.RERUN_IN_WORKERS), halted, "the launcher is asked for workers");
            assertEquals("checking", Files.readString(offer.resolve(SharedJvm.MARK)), "the launcher's mark");
        } finally {
            release.countDown();
            System.clearProperty(SharedJvm.OFFER_PROPERTY);
            System.clearProperty("gradcheck.onejvm.stuck.seconds");
            SharedJvm.halt = code -> Runtime.getRuntime().halt(code);
            SharedJvm.forget();
        }
    }

    @Test
    void theSpecsOwnTimeoutWinsAndAFastCheckKeepsItsResult() {
        AtomicInteger slowForwards = new AtomicInteger();
        List<CheckResult> results = run(specs("timeout: 1"), new TimeLimits(600.0), slowForwards);
        assertEquals(Status.TIMEOUT, results.get(0).status(), results::toString);
        assertEquals("timed out after 1 s (the spec's timeout)", results.get(0).message());
        assertTrue(results.get(1).gradients().get(0).maxRelError() < 1e-6, "a real check after it: " + results);
    }
}
