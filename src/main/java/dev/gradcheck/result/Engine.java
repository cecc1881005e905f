package dev.gradcheck.result;

import java.util.List;
import java.util.Optional;

/**
 * An ND4J engine a check can run on: a spec's {@code backends:}, {@code --backend}, a result's {@code backend}.
 * Only the names live here; what gradcheck does differently per engine (start a worker for it, probe whether it
 * can run here, what a check ends as when it cannot) is in one class per engine in backend/, chosen by
 * {@code backend.EngineSupport.of}'s exhaustive switch.
 */
public enum Engine implements Named {
    CPU,
    CUDA;

    /** The engine a spec runs on when it names none, and the one a report need not name. */
    public static final Engine DEFAULT = CPU;

    @Override
    public String specName() {
        return Named.of(this);
    }

    public static Optional<Engine> fromSpecName(String text) {
        return Named.parse(Engine.class, text);
    }

    public static List<String> specNames() {
        return Named.names(Engine.class);
    }
}
