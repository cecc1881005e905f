package dev.gradcheck.backend.nd4j;

import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.op.Nd4jStartup;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.result.Engine;
import dev.gradcheck.spec.MemoryBudget;

/**
 * ND4J's CPU engine in this JVM, with ND4J's ops and the run's plugins: what {@link BackendFactory#CPU} finds
 * (META-INF/services), so that the front end names no class of the side that loads ND4J. Like a worker, it skips
 * ND4J's TensorFlow import tables ({@link Nd4jStartup#skipTensorflowImport}).
 */
public final class InProcessCpu implements BackendFactory {

    @Override
    public Backend create(PluginSet plugins, MemoryBudget budget) {
        Nd4jStartup.skipTensorflowImport();
        return InProcessBackend.withPlugins(Engine.CPU, plugins, budget);
    }
}
