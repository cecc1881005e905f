package dev.gradcheck.check.jacobian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.Functions;
import dev.gradcheck.op.Differentiable;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When helper threads join a run: after the long wait where a copy would have to be built, after the short one where
 * every helper's copies are at hand (kept by the function cache, or made by an earlier run of the same check). The
 * long wait is set to an hour here, so a helper that evaluates anything joined on the short one.
 */
class ParallelLinesTest {

    private long startAfter;
    private long startWithCopiesAfter;

    @BeforeEach
    void longWaitAnHourShortWaitNone() {
        startAfter = ParallelLines.startAfterNanos;
        startWithCopiesAfter = ParallelLines.startWithCopiesAfterNanos;
        ParallelLines.startAfterNanos = 3_600_000_000_000L;
        ParallelLines.startWithCopiesAfterNanos = 0;
        ParallelLines.callerLeavesTasksToHelpers = true;
    }

    @AfterEach
    void restore() {
        ParallelLines.startAfterNanos = startAfter;
        ParallelLines.startWithCopiesAfterNanos = startWithCopiesAfter;
        ParallelLines.callerLeavesTasksToHelpers = false;
    }

    /** A function (never evaluated here) that says how many ready copies it has and counts the copies made of it. */
    private static final class Copyable extends Functions.Delegate {
        final int ready;
        final AtomicInteger copied;

        Copyable(int ready, AtomicInteger copied) {
            super(Functions.elementsAboveOne());
            this.ready = ready;
            this.copied = copied;
        }

        @Override
        public int readyCopies() {
            return ready;
        }

        @Override
        public Differentiable copy() {
            copied.incrementAndGet();
            return new Copyable(0, copied);
        }
    }

    /** Task k gives k, on whichever thread; a helper's evaluator asks for copies of the function. */
    private record Squares(Differentiable f) implements ParallelLines.Evaluator<Integer> {
        @Override
        public Integer evaluate(int task) {
            return task * task;
        }

        @Override
        public Squares copy(ParallelLines.Copies copies) {
            return new Squares(copies.of(f));
        }

        @Override
        public List<Differentiable> functions() {
            return List.of(f);
        }
    }

    /**
     * Task k gives k², but the calling thread's tasks after its first (which starts the helpers) wait until a
     * helper has evaluated one: a calling thread that also evaluates could otherwise finish 200 squares before a
     * helper is scheduled (it did, at load 8).
     */
    private record HelperFirst(Differentiable f, Thread caller, java.util.concurrent.CountDownLatch helperEvaluated,
                               AtomicInteger callerTasks) implements ParallelLines.Evaluator<Integer> {
        HelperFirst(Differentiable f, Thread caller) {
            this(f, caller, new java.util.concurrent.CountDownLatch(1), new AtomicInteger());
        }

        @Override
        public Integer evaluate(int task) {
            if (Thread.currentThread() != caller) {
                helperEvaluated.countDown();
            } else if (callerTasks.getAndIncrement() > 0 && !awaitHelper()) {
                throw new AssertionError("no helper evaluated a task within a minute");
            }
            return task * task;
        }

        private boolean awaitHelper() {
            try {
                return helperEvaluated.await(1, java.util.concurrent.TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        @Override
        public HelperFirst copy(ParallelLines.Copies copies) {
            return new HelperFirst(copies.of(f), caller, helperEvaluated, callerTasks);
        }

        @Override
        public List<Differentiable> functions() {
            return List.of(f);
        }
    }

    private static List<Integer> expected(int count) {
        return java.util.stream.IntStream.range(0, count).map(k -> k * k).boxed().toList();
    }

    @Test
    void withoutReadyCopiesHelpersWaitTheLongWait() {
        AtomicInteger copied = new AtomicInteger();
        try (ParallelLines lines = new ParallelLines(2)) {
            assertEquals(expected(50), lines.run(50, new Squares(new Copyable(0, copied))));
            assertEquals(0, lines.helperTasks(), "the calling thread did every task");
            assertEquals(0, copied.get(), "no copy was made");
        }
    }

    @Test
    void withACopyReadyForEachHelperTheyJoinAtOnce() {
        AtomicInteger copied = new AtomicInteger();
        try (ParallelLines lines = new ParallelLines(3)) {
            assertEquals(expected(50), lines.run(50, new Squares(new Copyable(1, copied))), "results by index");
            assertEquals(0, lines.helperTasks(), "one ready copy for two helpers: both wait");
        }
        try (ParallelLines lines = new ParallelLines(3)) {
            assertEquals(expected(50), lines.run(50, new Squares(new Copyable(2, copied))), "results by index");
            assertTrue(lines.helperTasks() > 0, "helpers took tasks");
            assertEquals(2, copied.get(), "one copy per helper");
        }
    }

    @Test
    void copiesMadeByAnEarlierRunOfTheCheckCountAsAtHand() {
        AtomicInteger copied = new AtomicInteger();
        Copyable f = new Copyable(0, copied);
        try (ParallelLines lines = new ParallelLines(2)) {
            ParallelLines.startAfterNanos = 0; // the first run builds the helper's copy
            lines.run(50, new Squares(f));
            long first = lines.helperTasks();
            assertTrue(first > 0);
            ParallelLines.startAfterNanos = 3_600_000_000_000L;
            assertEquals(expected(50), lines.run(50, new Squares(f)));
            assertTrue(lines.helperTasks() > first, "the helper joined the second run at once");
            assertEquals(1, copied.get(), "with the copy it made in the first");
            Copyable other = new Copyable(0, copied);
            long second = lines.helperTasks();
            lines.run(50, new Squares(other));
            assertEquals(second, lines.helperTasks(), "a function it has no copy of: the long wait");
        }
    }

    /** Task k gives k², but task {@code failing} throws. */
    private record FailingAt(Differentiable f, int failing) implements ParallelLines.Evaluator<Integer> {
        @Override
        public Integer evaluate(int task) {
            if (task == failing) {
                throw new IllegalStateException("task " + task);
            }
            return task * task;
        }

        @Override
        public FailingAt copy(ParallelLines.Copies copies) {
            return new FailingAt(copies.of(f), failing);
        }

        @Override
        public List<Differentiable> functions() {
            return List.of(f);
        }
    }

    @Test
    void resultsHandedOverAsTheyComeAreUsedInTaskOrderOnTheCallingThread() {
        ParallelLines.callerLeavesTasksToHelpers = false; // the calling thread evaluates and uses in turn
        Thread caller = Thread.currentThread();
        List<Integer> used = new java.util.ArrayList<>();
        List<Integer> tasks = new java.util.ArrayList<>();
        try (ParallelLines lines = new ParallelLines(3)) {
            HelperFirst squares = new HelperFirst(new Copyable(2, new AtomicInteger()), caller);
            lines.run(200, squares, (task, r) -> {
                assertSame(caller, Thread.currentThread(), "used on the calling thread");
                tasks.add(task);
                used.add(r);
            });
            assertTrue(lines.helperTasks() > 0, "helpers took tasks");
        }
        assertEquals(java.util.stream.IntStream.range(0, 200).boxed().toList(), tasks, "in task order");
        assertEquals(expected(200), used);
    }

    @Test
    void aFailingTaskIsThrownAndNoTaskFromItOnIsUsed() {
        List<Integer> tasks = new java.util.ArrayList<>();
        try (ParallelLines lines = new ParallelLines(2)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> lines.run(100,
                    new FailingAt(new Copyable(1, new AtomicInteger()), 37), (task, r) -> tasks.add(task)));
            assertEquals("task 37", e.getMessage());
        }
        assertTrue(tasks.size() <= 37, "used up to task 36 at most: " + tasks.size());
        assertEquals(java.util.stream.IntStream.range(0, tasks.size()).boxed().toList(), tasks, "in task order");
    }
}
