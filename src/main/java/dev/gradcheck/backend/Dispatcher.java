package dev.gradcheck.backend;

import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/**
 * Spreads checks over lanes: each lane is one thread owning one {@link Backend} (a worker JVM, or this JVM),
 * created when the lane takes its first check and closed when the queue runs dry. An engine may have several lanes
 * ({@code --jobs N} CPU workers); each check goes to a lane of its own engine.
 */
public final class Dispatcher {

    /**
     * One check to run: the spec on the engine; {@code index} orders the report; {@code sample} asks for the
     * backend's {@link BackendSample} too, to compare engines.
     */
    public record Task(int index, OpSpec spec, Engine engine, boolean sample) {}

    /** Hears of each check as it ends, on the lane's thread. */
    public interface Listener {
        /** @param sample the backend's sample when the task asked for one and it could be taken, else null */
        void ended(Task task, CheckResult result, BackendSample sample);
    }

    private final Map<Engine, List<Supplier<Backend>>> lanes;
    private volatile boolean stopped;

    /** @param lanes per engine, one backend factory per lane */
    public Dispatcher(Map<Engine, List<Supplier<Backend>>> lanes) {
        this.lanes = lanes;
    }

    /**
     * Runs every task and returns when all have finished or {@link #stop()} was called and the checks in flight
     * ended. {@code onResult} is called from the lane threads as each check ends.
     */
    public void run(List<Task> tasks, Listener onResult) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (Map.Entry<Engine, List<Supplier<Backend>>> e : lanes.entrySet()) {
            Queue<Task> queue = new ConcurrentLinkedQueue<>(
                    tasks.stream().filter(t -> t.engine() == e.getKey()).toList());
            if (queue.isEmpty()) {
                continue; // a backend with nothing to do costs nothing
            }
            for (Supplier<Backend> factory : e.getValue()) {
                Thread t = new Thread(() -> drain(queue, factory, onResult), "gradcheck-" + e.getKey().specName() + "-lane");
                t.setDaemon(true); // Ctrl-C must not wait for a check in flight
                threads.add(t);
                t.start();
            }
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    /** No further checks start; those in flight finish. */
    public void stop() {
        stopped = true;
    }

    private void drain(Queue<Task> queue, Supplier<Backend> factory, Listener onResult) {
        Backend backend = null;
        try {
            for (Task task = queue.poll(); task != null && !stopped; task = queue.poll()) {
                if (backend == null) {
                    backend = factory.get(); // only pay for an engine when a check needs it
                }
                CheckResult result = backend.run(task.spec());
                // only a check that got as far as gradients passed the memory budget and ran the op: after a
                // refusal, an error, a crash or a hang, sampling would allocate unchecked or only repeat the failure
                boolean sampled = task.sample() && result.gradients() != null && !result.gradients().isEmpty();
                onResult.ended(task, result, sampled ? backend.sample(task.spec()) : null);
            }
        } finally {
            if (backend != null) {
                backend.close();
            }
        }
    }
}
