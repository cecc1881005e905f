package dev.gradcheck.backend;

import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Every check in this JVM on ND4J's CPU engine: one at a time ({@code --in-process}, for debugging), or on a few
 * lanes side by side (a small run in the front end's JVM, {@link SharedJvm#lanes}); no crash isolation; each check
 * within its time limit ({@link InProcessTimeLimit}). Each lane has a backend of its own (its own functions kept for
 * reruns) and its own checking thread; what a check's calls take is measured with no other check's call beside it
 * (op/CallGate). Other engines are not available (each says why): ND4J holds one engine per JVM.
 * What Java code prints during a check (ND4J's logs) becomes the check's log ({@link EngineOutput}); libnd4j's own
 * printf()s cannot be caught in this JVM and go to its stdout, which bin/gradcheck points at stderr.
 */
public final class InProcessPool implements EnginePool {

    private final Engine here;
    private final List<Lane> lanes = new ArrayList<>();
    /** The time limits of the backends the lanes run now, whose checks in flight {@link #abort} stops. */
    private final List<InProcessTimeLimit> limits = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * One check at a time.
     *
     * @param here    the engine ND4J runs in this JVM
     * @param backend makes the backend, when the first check comes
     */
    public InProcessPool(Engine here, Supplier<Backend> backend) {
        this(here, 1, backend);
    }

    /**
     * @param lanes   how many checks run side by side
     * @param backend makes a lane's backend, when its first check comes
     */
    public InProcessPool(Engine here, int lanes, Supplier<Backend> backend) {
        this.here = here;
        for (int i = 0; i < Math.max(1, lanes); i++) {
            this.lanes.add(new Lane(() -> {
                InProcessTimeLimit limit = new InProcessTimeLimit();
                limits.add(limit);
                return new Capturing(backend.get(), limit);
            }));
        }
    }

    @Override
    public Availability availability(Engine engine) {
        return engine == here ? Availability.ALWAYS : EngineSupport.of(engine).probe(false);
    }

    @Override
    public List<Lane> lanes(Engine engine) {
        return engine == here ? List.copyOf(lanes) : List.of();
    }

    /** Stops the checks in flight at their next evaluation (a thread cannot be killed as a worker can). */
    @Override
    public void abort() {
        limits.forEach(InProcessTimeLimit::abort);
    }

    @Override
    public void close() {
        lanes.forEach(Lane::close);
    }

    /** A backend whose checks keep what Java printed on their thread while they ran, each within its time limit. */
    private record Capturing(Backend inner, InProcessTimeLimit limit) implements Backend {

        @Override
        public Engine engine() {
            return inner.engine();
        }

        @Override
        public CheckResult run(CheckRequest request) {
            return limit.run(request, engine().specName(), this::capturing);
        }

        private CheckResult capturing(CheckRequest request) {
            CappedLines<String> printed = new CappedLines<>();
            CheckResult result = EngineOutput.capture(() -> inner.run(request), printed);
            if (printed.isEmpty()) {
                return result;
            }
            List<String> log = new ArrayList<>(result.log());
            log.addAll(printed.lines(CappedLines::droppedLine));
            return result.withLog(log);
        }

        @Override
        public BackendSample sample(CheckRequest request) {
            return EngineOutput.capture(() -> inner.sample(request), new CappedLines<>());
        }

        @Override
        public void close() {
            limit.close();
            inner.close();
        }
    }
}
