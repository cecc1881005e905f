package dev.gradcheck.backend;

import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.spec.MemoryBudget;
import java.util.ServiceLoader;

/**
 * Makes the engine that checks in the front end's JVM ({@code --in-process}) for a run's plugins and memory
 * budget; tests give one whose operators misbehave on purpose.
 */
@FunctionalInterface
public interface BackendFactory {

    /**
     * ND4J's CPU engine in this JVM, with ND4J's ops and the run's plugins: the CLI's {@code --in-process}, which
     * like a worker skips ND4J's TensorFlow import tables. The engine is found when it is first asked for, through
     * {@link ServiceLoader} (backend/nd4j's {@code InProcessCpu}, listed in META-INF/services), not named here:
     * every command reaches this factory, and the front end loads ND4J only when it checks in its own JVM. The
     * architecture test follows every link the front end's classes make and finds no other way to ND4J.
     */
    BackendFactory CPU = (plugins, budget) -> ServiceLoader.load(BackendFactory.class,
            BackendFactory.class.getClassLoader()).findFirst().orElseThrow(() -> new IllegalStateException(
            "no in-process engine on the class path (META-INF/services/" + BackendFactory.class.getName() + ")"))
            .create(plugins, budget);

    Backend create(PluginSet plugins, MemoryBudget budget);

    /**
     * Starts loading the engine on a thread of its own, while this JVM's front end reads its command line and
     * specs: a check in the front end's JVM ({@link SharedJvm}) overlaps ND4J's start with them as a worker JVM
     * started early does. {@link #create} then waits for that start. Does nothing by default.
     */
    default void prestart() {}

    /** {@link #prestart} of the engine {@link #CPU} finds; nothing when there is none. */
    static void prestartCpu() {
        ServiceLoader.load(BackendFactory.class, BackendFactory.class.getClassLoader()).findFirst()
                .ifPresent(BackendFactory::prestart);
    }
}
