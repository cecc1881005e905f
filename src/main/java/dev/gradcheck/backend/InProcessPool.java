package dev.gradcheck.backend;

import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Every check in this JVM, one at a time, on ND4J's CPU engine ({@code --in-process}, for debugging): no crash
 * isolation; each check within its time limit ({@link InProcessTimeLimit}). Other engines are not available (each says why): ND4J holds one engine per JVM.
 * What Java code prints during a check (ND4J's logs) becomes the check's log ({@link EngineOutput}); libnd4j's own
 * printf()s cannot be caught in this JVM and go to its stdout, which bin/gradcheck points at stderr.
 */
public final class InProcessPool implements EnginePool {

    private final Engine here;
    private final Lane lane;
    /** The time limit of the backend the lane runs now, whose check in flight {@link #abort} stops. */
    private volatile InProcessTimeLimit limit;

    /**
     * @param here    the engine ND4J runs in this JVM
     * @param backend makes the backend, when the first check comes
     */
    public InProcessPool(Engine here, Supplier<Backend> backend) {
        this.here = here;
        this.lane = new Lane(() -> {
            limit = new InProcessTimeLimit();
            return new Capturing(backend.get(), limit);
        });
    }

    @Override
    public Availability availability(Engine engine) {
        return engine == here ? Availability.ALWAYS : EngineSupport.of(engine).probe(false);
    }

    @Override
    public List<Lane> lanes(Engine engine) {
        return engine == here ? List.of(lane) : List.of();
    }

    /** Stops the check in flight at its next evaluation (a thread cannot be killed as a worker can). */
    @Override
    public void abort() {
        InProcessTimeLimit now = limit;
        if (now != null) {
            now.abort();
        }
    }

    @Override
    public void close() {
        lane.close();
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
