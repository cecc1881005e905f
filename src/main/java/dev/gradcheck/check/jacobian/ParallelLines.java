package dev.gradcheck.check.jacobian;

import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.op.Differentiable;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Evaluates a list of independent line evaluations (a check's columns, rows or groups) on up to {@code threads}
 * threads, each helper thread with its own copy of the functions ({@link Differentiable#copy}): a function holds
 * the arrays it computes in, so one instance serves one thread. Results go to their task's index, so they do not
 * depend on the thread count; the function copies give the same bits as the originals, so neither do the values.
 *
 * <p>The calling thread starts alone and helpers join only once the work has run for {@link #startAfterNanos}
 * and looks like it has at least as long to go: a copy costs a build of the function (a few milliseconds), which a
 * small check would not earn back. Where every helper's copies are at hand (made by an earlier run of the same
 * check, or kept by the function cache from an earlier check: {@link Differentiable#readyCopies}) the wait is
 * {@link #startWithCopiesAfterNanos} instead, which only has to earn a thread's hand-over. Helpers take tasks from
 * the same counter in index order, so when a task throws, every task before it has run, and the exception of the
 * first failing task is the one thrown, as on one thread.
 */
public final class ParallelLines implements AutoCloseable {

    /** How long the calling thread works alone before helpers may join; tests set 0 to always use them. */
    public static volatile long startAfterNanos = 10_000_000L;

    /**
     * The same where no copy has to be built: a millisecond, so that checks of a millisecond or two, whose fixed
     * costs outweigh their lines, stay on one thread (a helper's hand-over and the caches its copies warm cost a few
     * hundred microseconds).
     */
    static volatile long startWithCopiesAfterNanos = 1_000_000L;

    /**
     * Tests set this so that, once helpers have started, the calling thread leaves the remaining tasks to them (and
     * takes only what they leave, e.g. when a function cannot be copied): otherwise a check of a few fast lines may
     * be done by the calling thread before a helper has built its copy, and a test could not tell helpers ran.
     */
    public static volatile boolean callerLeavesTasksToHelpers = false;

    private static final ExecutorService HELPERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "gradcheck-lines");
        t.setDaemon(true);
        return t;
    });

    private final int threads;
    /** Per helper (index 1 ..), the copies of each function used, keyed by the original. */
    private final List<Map<Differentiable, Differentiable>> copies = new ArrayList<>();
    private final AtomicLong helperTasks = new AtomicLong();
    private static final AtomicLong HELPER_TASKS_IN_THIS_JVM = new AtomicLong();

    public ParallelLines(int threads) {
        this.threads = Math.max(1, threads);
        for (int k = 1; k < this.threads; k++) {
            copies.add(new IdentityHashMap<>());
        }
    }

    /** How a side evaluates one task; a helper's version works on copies from {@link Copies}. */
    public interface Evaluator<R> {
        R evaluate(int task);

        /**
         * This evaluator over copies of its functions, for a helper thread.
         *
         * @throws UnsupportedOperationException when a function cannot be copied (the helper then stays idle)
         */
        Evaluator<R> copy(Copies copies);

        /** The functions {@link #copy} copies. */
        List<Differentiable> functions();
    }

    /** The copies one helper thread works on: one per original function, shared by every side that uses it. */
    @FunctionalInterface
    public interface Copies {
        Differentiable of(Differentiable original);
    }

    /** Tasks run by helper threads so far (the rest ran on the calling thread). */
    long helperTasks() {
        return helperTasks.get();
    }

    /** Tasks run by helper threads of every check in this JVM so far: tests see that helpers did work. */
    public static long helperTasksInThisJvm() {
        return HELPER_TASKS_IN_THIS_JVM.get();
    }

    /**
     * One run's tasks, shared by the calling thread and its helpers: the next task to take, each task's result or
     * failure by index, and the first task that failed ({@link Integer#MAX_VALUE} while none has).
     */
    private record Tasks(int count, AtomicInteger next, Object[] results, Throwable[] failures, AtomicInteger failed,
                         AtomicIntegerArray done) {

        static Tasks of(int count) {
            return new Tasks(count, new AtomicInteger(), new Object[count], new Throwable[count],
                    new AtomicInteger(Integer.MAX_VALUE), new AtomicIntegerArray(count));
        }

        /** Whether task k ran and gave a result (set after the result: reading this first, the result is seen). */
        boolean succeeded(int k) {
            return done.get(k) != 0 && failures[k] == null;
        }

        /** The next task not yet taken; {@code count} or more when there is none. */
        int take() {
            return next.getAndIncrement();
        }

        boolean anyFailed() {
            return failed.get() != Integer.MAX_VALUE;
        }

        /** Runs one task, keeping its result, or its failure. */
        public <R> void run(Evaluator<R> evaluator, int task) {
            try {
                results[task] = evaluator.evaluate(task);
            } catch (Throwable e) { // an operator may fail in any way; the first failing task's error is the check's
                failures[task] = e;
                failed.accumulateAndGet(task, Math::min);
            }
            done.set(task, 1);
        }
    }

    /** Takes one task's result, on the calling thread, in task order. */
    @FunctionalInterface
    public interface InOrder<R> {
        void accept(int task, R result);
    }

    /**
     * Runs tasks 0 .. count-1 and returns their results by index.
     *
     * @param <R> what one task gives
     */
    public <R> List<R> run(int count, Evaluator<R> evaluator) {
        List<R> list = new ArrayList<>(count);
        run(count, evaluator, (task, r) -> list.add(r));
        return list;
    }

    /**
     * Runs tasks 0 .. count-1 and hands each result to {@code use} on the calling thread, in task order, once it and
     * every task before it have run: between tasks of its own, the calling thread uses what is done, so that its
     * work on a result overlaps the helpers' next evaluations (handed over only at the end, the results would leave
     * the helpers idle while the calling thread works through them). The same results in the same order as handed
     * over at the end; where a task fails, those before it may have been used when its failure is thrown.
     *
     * @param <R> what one task gives
     */
    public <R> void run(int count, Evaluator<R> evaluator, InOrder<R> use) {
        Tasks tasks = Tasks.of(count);
        List<Future<?>> helpers = new ArrayList<>();
        long startAfter = copiesAtHand(evaluator.functions()) ? Math.min(startAfterNanos, startWithCopiesAfterNanos)
                : startAfterNanos;
        Meter start = Meter.timing();
        int used = 0;
        try {
            for (int task = tasks.take(); task < count; task = tasks.take()) {
                tasks.run(evaluator, task);
                if (tasks.anyFailed()) {
                    break;
                }
                if (helpers.isEmpty() && threads > 1 && worthHelpers(start, task + 1, count, startAfter)) {
                    for (int k = 0; k < threads - 1; k++) {
                        Map<Differentiable, Differentiable> own = copies.get(k);
                        helpers.add(HELPERS.submit(() -> help(evaluator, own, tasks)));
                    }
                    if (callerLeavesTasksToHelpers) {
                        awaitAll(helpers);
                    }
                }
                used = useDone(tasks, used, use);
            }
        } finally {
            awaitAll(helpers);
        }
        if (tasks.anyFailed()) {
            rethrow(tasks.failures()[tasks.failed().get()]);
        }
        useDone(tasks, used, use);
    }

    /** Hands the results done from task {@code from} on, in order, to {@code use}: up to the first not done. */
    @SuppressWarnings("unchecked")
    private static <R> int useDone(Tasks tasks, int from, InOrder<R> use) {
        int k = from;
        for (; k < tasks.count() && tasks.succeeded(k); k++) {
            R result = (R) tasks.results()[k];
            tasks.results()[k] = null; // used: not held here any longer
            use.accept(k, result);
        }
        return k;
    }

    /**
     * Waits for every helper to end, even when this thread is interrupted (a check stopped at its time limit): the
     * helpers stop at their next task once a task failed, and none may go on evaluating after its run returned.
     */
    private static void awaitAll(List<Future<?>> helpers) {
        boolean interrupted = false;
        for (Future<?> h : helpers) {
            while (true) {
                try {
                    h.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (java.util.concurrent.ExecutionException e) { // a helper's own failures are kept per task
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean worthHelpers(Meter start, int done, int count, long startAfter) {
        long elapsed = start.nanos();
        return elapsed >= startAfter && (double) elapsed / done * (count - done) >= startAfter;
    }

    /**
     * Whether every helper has copies of these functions without building one: made for it by an earlier run, or
     * as many kept builds as helpers lack a copy. Read before helpers start, when none is running.
     */
    private boolean copiesAtHand(List<Differentiable> functions) {
        for (Differentiable f : functions) {
            long lacking = copies.stream().filter(own -> !own.containsKey(f)).count();
            if (lacking > f.readyCopies()) {
                return false;
            }
        }
        return true;
    }

    private <R> void help(Evaluator<R> evaluator, Map<Differentiable, Differentiable> own, Tasks tasks) {
        Evaluator<R> copy;
        try {
            copy = evaluator.copy(original -> own.computeIfAbsent(original, Differentiable::copy));
        } catch (RuntimeException e) { // not copyable here: the calling thread does the work
            return;
        }
        for (int task = tasks.take(); task < tasks.count() && !tasks.anyFailed(); task = tasks.take()) {
            tasks.run(copy, task);
            helperTasks.incrementAndGet();
            HELPER_TASKS_IN_THIS_JVM.incrementAndGet();
        }
    }

    private static void rethrow(Throwable e) {
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        throw new IllegalStateException(e);
    }

    /** Closes every copy made. */
    @Override
    public void close() {
        for (Map<Differentiable, Differentiable> own : copies) {
            own.values().forEach(Differentiable::close);
            own.clear();
        }
    }
}
