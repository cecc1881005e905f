package dev.gradcheck.backend;

import dev.gradcheck.result.Engine;
import java.util.List;
import java.util.function.Supplier;

/**
 * Every check in this JVM, one at a time, on ND4J's CPU engine ({@code --in-process}, for debugging): no crash
 * isolation, no time limits. Other engines are not available (each says why): ND4J holds one engine per JVM.
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
        this.lane = new Lane(backend);
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
}
