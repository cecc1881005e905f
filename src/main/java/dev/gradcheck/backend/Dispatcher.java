package dev.gradcheck.backend;

import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Spreads checks over a pool's lanes: one thread per lane, taking the checks of its engine in index order. The
 * lanes' backends belong to the pool, which outlives this dispatch.
 */
public final class Dispatcher {

    /**
     * One check to run on an engine; {@code index} orders the report; {@code sample} asks for the backend's
     * {@link BackendSample} too, to compare engines.
     */
    public record Task(int index, CheckRequest request, Engine engine, boolean sample) {}

    /** Hears of each check as it starts and ends, on the lane's thread. */
    public interface Listener {
        default void started(Task task) {}

        /** @param sample the backend's sample when the task asked for one and it could be taken, else null */
        void ended(Task task, CheckResult result, BackendSample sample);
    }

    private final EnginePool pool;
    /** No task with a higher index starts. */
    private volatile int lastIndex = Integer.MAX_VALUE;

    public Dispatcher(EnginePool pool) {
        this.pool = pool;
    }

    /**
     * Runs every task and returns when all have finished or were stopped and the checks in flight ended.
     * {@code listener} is called from the lane threads.
     */
    public void run(List<Task> tasks, Listener listener) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (Engine engine : Engine.values()) {
            Queue<Task> queue = new ConcurrentLinkedQueue<>(tasks.stream().filter(t -> t.engine() == engine).toList());
            if (queue.isEmpty()) {
                continue; // an engine with nothing to do costs nothing
            }
            for (Lane lane : pool.lanes(engine)) {
                Thread t = new Thread(() -> drain(queue, lane, listener), "gradcheck-" + engine.specName() + "-lane");
                t.setDaemon(true); // Ctrl-C must not wait for a check in flight
                threads.add(t);
                t.start();
            }
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    /** No task after {@code index} starts (those before it still do); checks in flight finish. */
    public void stopAfter(int index) {
        lastIndex = Math.min(lastIndex, index);
    }

    /** No further checks start; those in flight finish. */
    public void stop() {
        stopAfter(-1);
    }

    private void drain(Queue<Task> queue, Lane lane, Listener listener) {
        for (Task task = queue.poll(); task != null && task.index() <= lastIndex; task = queue.poll()) {
            Backend backend = lane.backend();
            listener.started(task);
            CheckResult result = backend.run(task.request());
            // only a check that got as far as gradients passed the memory budget and ran the op: after a refusal,
            // an error, a crash or a hang, sampling would allocate unchecked or only repeat the failure
            boolean sampled = task.sample() && result.gradients() != null && !result.gradients().isEmpty();
            listener.ended(task, result, sampled ? backend.sample(task.request()) : null);
        }
    }
}
