package dev.gradcheck.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.InProcessPool;
import dev.gradcheck.backend.nd4j.InProcessBackend;
import dev.gradcheck.check.Functions;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A run session in this JVM: what its listeners hear, fail-fast as a listener, a pool kept across sessions. */
class RunSessionTest {

    private static final Nd4jOpBuilder ND4J = new Nd4jOpBuilder(OpCatalog.nd4j());
    /** Specs named after how they end: tanh passes; "wrong" (sigmoid) meets a backward 2% off. */
    private static final String SPECS = """
            name: first
            op: tanh
            inputs: {x: {shape: [3]}}
            ---
            name: broken
            op: tanh
            inputs: {x: {shape: [3], dtype: complex}}
            ---
            name: wrong
            op: sigmoid
            inputs: {x: {shape: [3]}}
            ---
            name: both
            op: tanh
            inputs: {x: {shape: [2]}}
            backends: [cpu, cuda]
            ---
            name: last
            op: tanh
            inputs: {x: {shape: [3]}}
            """;

    /** ND4J's ops, sigmoid's backward scaled by 1.02. */
    private static Supplier<Backend> engine(AtomicInteger made) {
        return () -> {
            made.incrementAndGet();
            return new InProcessBackend(Engine.CPU, (spec, in) -> spec.op().value().equals("sigmoid")
                    ? Functions.withBackward(ND4J.build(spec, in), Functions.scaledBy(1.02)) : ND4J.build(spec, in),
                    MemoryBudget.forThisJvm());
        };
    }

    private static List<LoadedSpec> specs() {
        return new SpecLoader().loadText("s.yaml", "s", SPECS);
    }

    /** Writes down every event as a line. */
    private static final class Recorder implements RunListener {
        final List<String> events = new ArrayList<>();

        @Override
        public void runStarted(int checks) {
            events.add("run " + checks);
        }

        @Override
        public void notice(String message) {
            events.add("notice " + message);
        }

        @Override
        public void checkStarted(int index, OpSpec spec, Engine engine) {
            events.add("start " + index + " " + spec.name());
        }

        @Override
        public void checkFinished(int index, CheckResult result) {
            events.add("end " + index + " " + result.name() + " " + result.status());
        }

        @Override
        public void runFinished(RunOutcome outcome) {
            events.add("finished " + outcome.results().size());
        }

        @Override
        public void runInterrupted(RunOutcome outcome) {
            events.add("interrupted " + outcome.results().size());
        }
    }

    @Test
    void listenersHearEveryCheckInOrderAndKnownResultsFirst() throws InterruptedException {
        Recorder recorder = new Recorder();
        try (InProcessPool pool = new InProcessPool(Engine.CPU, engine(new AtomicInteger()))) {
            RunSession session = new RunSession(RunConfiguration.of(specs()), pool);
            session.addListener(recorder);
            RunOutcome outcome = session.run();
            assertEquals(List.of("first", "broken", "wrong", "both", "both", "last"),
                    outcome.results().stream().map(CheckResult::name).toList());
            assertEquals(Status.SKIPPED, outcome.results().get(4).status(), "cuda is not in this JVM");
        }
        assertEquals(List.of(
                "notice cuda: --in-process runs on the cpu backend only (the CUDA backend needs a worker JVM);"
                        + " cuda checks are skipped",
                "run 6",
                "end 1 broken INVALID",
                "start 0 first", "end 0 first PASSED",
                "start 2 wrong", "end 2 wrong FAILED",
                "start 3 both", "end 3 both PASSED", "end 4 both SKIPPED",
                "start 5 last", "end 5 last PASSED",
                "finished 6"), recorder.events);
    }

    /**
     * A small run's lanes (checks side by side in this JVM, one backend each) give what one lane gives: the same
     * results, in the same order, the wrong backward failing with the same worst entry.
     */
    @Test
    void twoLanesGiveOneLanesResultsInReportOrder() throws InterruptedException {
        List<LoadedSpec> all = new ArrayList<>(specs());
        all.addAll(new SpecLoader().loadText("more.yaml", "more", """
                name: wrong-again
                op: sigmoid
                inputs: {x: {shape: [4, 3]}}
                ---
                name: matmul
                op: matmul
                inputs: {a: {shape: [3, 4]}, b: {shape: [4, 2]}}
                """));
        AtomicInteger made = new AtomicInteger();
        List<List<String>> runs = new ArrayList<>();
        for (int lanes : new int[] {1, 2}) {
            try (InProcessPool pool = new InProcessPool(Engine.CPU, lanes, engine(made))) {
                runs.add(new RunSession(RunConfiguration.builder(all).lanesHere(lanes).build(), pool).run().results()
                        .stream().map(RunSessionTest::verdict).toList());
            }
        }
        assertEquals(3, made.get(), "a backend for the one lane, one for each of the two");
        assertEquals(runs.get(0), runs.get(1));
        assertEquals(List.of("FAILED", "FAILED"), runs.get(1).stream().filter(r -> r.startsWith("wrong"))
                .map(r -> r.split(" ")[1]).toList(), "sigmoid's backward scaled by 1.02 fails on both lanes");
    }

    /** A result as far as it is the check's and not its timing: status, message, every row's judgement. */
    private static String verdict(CheckResult r) {
        StringBuilder line = new StringBuilder(r.name() + " " + r.status() + " " + r.message());
        for (dev.gradcheck.result.GradientResult g : r.gradients()) {
            line.append(" | ").append(g.output()).append('/').append(g.input()).append(' ').append(g.kind())
                    .append(' ').append(g.verdict()).append(' ').append(g.maxAbsError()).append(' ')
                    .append(g.maxRelError()).append(' ').append(g.evaluations())
                    .append(g.worst() == null ? "" : " " + java.util.Arrays.toString(g.worst().outputIndex())
                            + java.util.Arrays.toString(g.worst().inputIndex()) + " " + g.worst().analytic() + " "
                            + g.worst().numerical())
                    .append(g.mismatches() == null ? "" : " mismatches " + g.mismatches().count());
        }
        return line.toString();
    }

    @Test
    void failFastStopsAfterTheFirstUnexpectedEndAndChecksBeforeItStillRun() throws InterruptedException {
        Recorder recorder = new Recorder();
        List<LoadedSpec> all = specs();
        RunConfiguration config = RunConfiguration.of(List.of(all.get(0), all.get(2), all.get(4))).withFailFast(true);
        try (InProcessPool pool = new InProcessPool(Engine.CPU, engine(new AtomicInteger()))) {
            RunSession session = new RunSession(config, pool);
            session.addListener(recorder);
            RunOutcome outcome = session.run();
            assertEquals(List.of("first", "wrong"), outcome.results().stream().map(CheckResult::name).toList());
        }
        assertFalse(recorder.events.contains("start 2 last"), recorder.events.toString());
        assertTrue(recorder.events.contains("finished 2"), recorder.events.toString());
    }

    @Test
    void aPoolOutlivesItsSessionsAndStartsItsEngineOnce() throws InterruptedException {
        AtomicInteger made = new AtomicInteger();
        List<LoadedSpec> one = specs().subList(0, 1);
        try (InProcessPool pool = new InProcessPool(Engine.CPU, engine(made))) {
            for (int run = 0; run < 3; run++) {
                assertEquals(Status.PASSED, new RunSession(RunConfiguration.of(one), pool).run().results().get(0)
                        .status());
            }
        }
        assertEquals(1, made.get(), "one engine served the three runs");
    }

    @Test
    void anInterruptedRunReportsWhatFinishedAndNothingAfter() throws InterruptedException {
        Recorder recorder = new Recorder();
        try (InProcessPool pool = new InProcessPool(Engine.CPU, engine(new AtomicInteger()))) {
            RunSession session = new RunSession(RunConfiguration.of(specs()), pool);
            session.addListener(new RunListener() {
                @Override
                public void checkFinished(int index, CheckResult result) {
                    if (result.name().equals("first")) {
                        session.interrupt(); // what Ctrl-C's shutdown hook calls
                    }
                }
            });
            session.addListener(recorder);
            RunOutcome outcome = session.run();
            assertTrue(outcome.interrupted());
            assertTrue(session.wasInterrupted());
        }
        assertTrue(recorder.events.stream().anyMatch(e -> e.startsWith("interrupted ")), recorder.events.toString());
        assertFalse(recorder.events.stream().anyMatch(e -> e.startsWith("finished")), recorder.events.toString());
        assertFalse(recorder.events.contains("start 5 last"), "nothing starts after the interruption: "
                + recorder.events);
    }
}
