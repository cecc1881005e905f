package dev.gradcheck.op;

import dev.gradcheck.op.catalog.OpCatalog;
import java.util.HashMap;

/**
 * What a JVM that checks (a worker, the CLI's {@code --in-process}) does about ND4J's start-up, which is most of a
 * short run's time (docs/benchmarks.md, "Start-up"). For gradcheck's own JVMs only, never a library user's.
 */
public final class Nd4jStartup {

    private Nd4jStartup() {}

    /**
     * Skips ND4J's tables for importing TensorFlow graphs, which gradcheck never does. SameDiff's class registry
     * (started by the first gradient: SameDiff copies a graph through FlatBuffers, which asks the registry for op
     * numbers) parses TensorFlow's whole op list from text on its way, about 0.5 s; handing ND4J an empty list
     * first skips that, and nothing on gradcheck's path reads it. Does nothing once ND4J has read the list, or if
     * its field has moved (another ND4J version then parses the list as before, only slower).
     */
    public static void skipTensorflowImport() {
        try {
            var field = org.nd4j.imports.descriptors.tensorflow.TensorflowDescriptorParser.class
                    .getDeclaredField("DESCRIPTORS");
            field.setAccessible(true);
            synchronized (org.nd4j.imports.descriptors.tensorflow.TensorflowDescriptorParser.class) {
                if (field.get(null) == null) {
                    field.set(null, new HashMap<>());
                }
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // another ND4J: nothing skipped
        }
    }

    /**
     * Reads, on a thread of its own, what the first check needs besides ND4J's native start (which the caller
     * is about to begin): gradcheck's op catalog and ND4J's op descriptors (a text file SameDiff parses when it
     * first copies a graph, about 0.3 s). Both are plain Java reading resources, independent of the native
     * backend, so the two starts overlap on a second core. A failure here is left for the check to meet.
     */
    public static void readDescriptorsInBackground() {
        Thread t = new Thread(() -> {
            try {
                OpCatalog.nd4j();
                org.nd4j.ir.OpDescriptorHolder.opList();
            } catch (RuntimeException | LinkageError e) {
                // the check that needs them reads them again and reports what goes wrong
            }
        }, "gradcheck-read-descriptors");
        t.setDaemon(true);
        t.start();
    }
}
