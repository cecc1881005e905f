package dev.gradcheck.backend;

import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Every check in this JVM, one at a time, on ND4J's CPU engine ({@code --in-process}, for debugging): no crash
 * isolation, no time limits. Other engines are not available (each says why): ND4J holds one engine per JVM.
 * What Java code prints during a check (ND4J's logs) becomes the check's log ({@link EngineOutput}); libnd4j's own
 * printf()s cannot be caught in this JVM and go to its stdout, which bin/gradcheck points at stderr.
 */
public final class InProcessPool implements EnginePool {

    private final Engine here;
    private final Lane lane;

    /**
     * @param here    the engine ND4J runs in this JVM
     * @param backend makes the backend, when the first check comes
     */
    public InProcessPool(Engine here, Supplier<Backend> backend) {
        this.here = here;
        this.lane = new Lane(() -> new Capturing(backend.get()));
    }

    @Override
    public Availability availability(Engine engine) {
        return engine == here ? Availability.ALWAYS : EngineSupport.of(engine).probe(false);
    }

    @Override
    public List<Lane> lanes(Engine engine) {
        return engine == here ? List.of(lane) : List.of();
    }

    /** Nothing to kill: a check in flight here ends with the JVM. */
    @Override
    public void abort() {}

    @Override
    public void close() {
        lane.close();
    }

    /** A backend whose checks keep what Java printed on their thread while they ran. */
    private record Capturing(Backend inner) implements Backend {

        @Override
        public Engine engine() {
            return inner.engine();
        }

        @Override
        public CheckResult run(CheckRequest request) {
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
            inner.close();
        }
    }
}
