package dev.gradcheck.backend;

import dev.gradcheck.op.Nd4jStartup;
import dev.gradcheck.op.PluginSet;
import dev.gradcheck.spec.MemoryBudget;

/**
 * Makes the engine that checks in the front end's JVM ({@code --in-process}) for a run's plugins and memory
 * budget; tests give one whose operators misbehave on purpose.
 */
@FunctionalInterface
public interface BackendFactory {

    /**
     * ND4J's CPU engine in this JVM, with ND4J's ops and the run's plugins: the CLI's {@code --in-process}, which
     * like a worker skips ND4J's TensorFlow import tables ({@link Nd4jStartup#skipTensorflowImport}).
     */
    BackendFactory CPU = (plugins, budget) -> {
        Nd4jStartup.skipTensorflowImport();
        return InProcessBackend.withPlugins(dev.gradcheck.result.Engine.CPU, plugins, budget);
    };

    Backend create(PluginSet plugins, MemoryBudget budget);
}
