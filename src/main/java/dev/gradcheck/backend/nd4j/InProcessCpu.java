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

    /** ND4J's start begun by {@link #prestart}, which the first engine made waits for; null when none was begun. */
    private static volatile java.util.concurrent.CountDownLatch started;

    @Override
    public Backend create(PluginSet plugins, MemoryBudget budget) {
        awaitPrestart();
        Nd4jStartup.skipTensorflowImport();
        return InProcessBackend.withPlugins(Engine.CPU, plugins, budget);
    }

    /**
     * Starts ND4J's backend on a thread of its own, and the start-up reader beside it (op descriptors, then SameDiff's
     * registry), as a worker does at its start. The check that first needs ND4J waits in {@link #create} until that
     * thread is done, so that no two threads start ND4J's classes at once (each could wait for a class the other is
     * starting). A start that fails is left for the check to meet again.
     */
    @Override
    public void prestart() {
        synchronized (InProcessCpu.class) {
            if (started != null) {
                return;
            }
            started = new java.util.concurrent.CountDownLatch(1);
        }
        java.util.concurrent.CountDownLatch done = started;
        Thread t = new Thread(() -> {
            try {
                Nd4jStartup.skipTensorflowImport();
                Nd4jStartup.readDescriptorsInBackground();
                Nd4jStartup.backendLoaded();
            } catch (RuntimeException | LinkageError e) {
                // the first check loads ND4J again and reports what goes wrong
            } finally {
                done.countDown();
            }
        }, "gradcheck-start-nd4j");
        t.setDaemon(true);
        t.start();
    }

    private static void awaitPrestart() {
        java.util.concurrent.CountDownLatch begun = started;
        if (begun == null) {
            return;
        }
        try {
            begun.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
