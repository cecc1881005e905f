package dev.gradcheck.run;

import dev.gradcheck.backend.Dispatcher;
import dev.gradcheck.backend.EnginePool;
import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Executes one {@link RunConfiguration} on a pool of engines and tells its {@link RunListener}s what happens:
 * the run starting, notices, each check starting and finishing, the run finishing or being interrupted. Results
 * keep the order of the specs, whatever order they finish in. The pool belongs to the caller, who may run several
 * sessions on it, one after the other.
 */
public final class RunSession {

    private final RunConfiguration config;
    private final EnginePool pool;
    private final List<RunListener> listeners = new CopyOnWriteArrayList<>();
    private CheckResult[] slots = new CheckResult[0];
    private CrossBackend cross = new CrossBackend(List.of(), 0);
    private Dispatcher dispatcher;
    /** No row after this one is reported (fail-fast). */
    private int lastIndex = Integer.MAX_VALUE;
    private boolean interrupted;
    private long startNanos = System.nanoTime();

    /** With {@link RunConfiguration#failFast()}, fail-fast listens first. */
    public RunSession(RunConfiguration config, EnginePool pool) {
        this.config = config;
        this.pool = pool;
        if (config.failFast()) {
            listeners.add(new FailFast(this));
        }
    }

    public void addListener(RunListener listener) {
        listeners.add(listener);
    }

    /**
     * Runs every check; returns when all have ended, or fail-fast stopped the run and the checks in flight ended,
     * or the run was interrupted.
     */
    public RunOutcome run() throws InterruptedException {
        startNanos = System.nanoTime();
        RunPlan plan = RunPlan.of(config, pool, message -> publish(l -> l.notice(message)));
        Dispatcher d;
        synchronized (this) {
            if (interrupted) {
                return outcome();
            }
            slots = plan.known().toArray(new CheckResult[0]);
            cross = new CrossBackend(plan.groups(), slots.length);
            d = dispatcher = new Dispatcher(pool);
            d.stopAfter(lastIndex);
            publish(l -> l.runStarted(plan.planned()));
            for (int i = 0; i < slots.length; i++) {
                if (slots[i] != null && !cross.grouped(i)) {
                    finished(i);
                }
            }
            cross.completeAtStart(slots).forEach(this::finished);
        }
        d.run(plan.tasks(), new Dispatcher.Listener() {
            @Override
            public void started(Dispatcher.Task task) {
                checkStarted(task);
            }

            @Override
            public void ended(Dispatcher.Task task, CheckResult result, BackendSample sample) {
                record(task.index(), result, sample);
            }
        });
        RunOutcome outcome;
        synchronized (this) {
            if (interrupted) {
                return outcome(); // the listeners heard of the interruption instead
            }
            outcome = outcome();
        }
        publish(l -> l.runFinished(outcome));
        return outcome;
    }

    /** The results so far, in spec order; after fail-fast stopped the run, up to the check that stopped it. */
    public synchronized List<CheckResult> results() {
        int end = (int) Math.min(slots.length, lastIndex + 1L);
        return Arrays.stream(slots, 0, end).filter(Objects::nonNull).toList();
    }

    /** No check after row {@code index} starts, and the results end there; those before it still run. */
    public synchronized void stopAfter(int index) {
        lastIndex = Math.min(lastIndex, index);
        if (dispatcher != null) {
            dispatcher.stopAfter(lastIndex);
        }
    }

    /**
     * Ctrl-C: no more checks start, and whatever ends from now on is dropped. The listeners hear of it with the
     * results so far, then the checks still in flight are aborted (after the report: a check ended by this must
     * not look like a crash).
     */
    public void interrupt() {
        RunOutcome outcome;
        synchronized (this) {
            interrupted = true;
            if (dispatcher != null) {
                dispatcher.stop();
            }
            outcome = outcome();
        }
        publish(l -> l.runInterrupted(outcome));
        pool.abort();
    }

    public synchronized boolean wasInterrupted() {
        return interrupted;
    }

    private synchronized void checkStarted(Dispatcher.Task task) {
        if (!interrupted) {
            publish(l -> l.checkStarted(task.index(), task.request().spec(), task.engine()));
        }
    }

    private synchronized void record(int index, CheckResult result, BackendSample sample) {
        if (interrupted) {
            return;
        }
        slots[index] = result;
        for (int i : cross.ended(index, sample, slots)) {
            finished(i);
        }
    }

    private void finished(int[] group) {
        for (int i : group) {
            finished(i);
        }
    }

    /** Rows after the one fail-fast stopped at are not reported: the results end there. */
    private void finished(int index) {
        if (index <= lastIndex) {
            publish(l -> l.checkFinished(index, slots[index]));
        }
    }

    private synchronized RunOutcome outcome() {
        return new RunOutcome(results(), (System.nanoTime() - startNanos) / 1e9, interrupted, slots.length);
    }

    private void publish(Consumer<RunListener> event) {
        listeners.forEach(event);
    }
}
