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

    private static final java.util.concurrent.atomic.AtomicBoolean READER_STARTED =
            new java.util.concurrent.atomic.AtomicBoolean();
    /** Set once this JVM's ND4J backend has loaded ({@link #backendLoaded}); the registry waits for it. */
    private static final java.util.concurrent.CountDownLatch BACKEND_LOADED = new java.util.concurrent.CountDownLatch(1);

    /**
     * Reads, on a thread of its own, what the first check needs besides ND4J's native start (which the caller
     * is about to begin): gradcheck's op catalog and ND4J's op descriptors, which SameDiff reads when it first
     * copies a graph (from the build's binary copy, {@link OpDescriptors}; else ND4J parses their text, about 0.3 s
     * of CPU). Both are plain Java reading resources, independent of the native
     * backend, so the two starts overlap on a second core. Then, once the caller says ND4J's backend has loaded
     * ({@link #backendLoaded}), SameDiff's class registry: the first gradient's copy of its graph asks it for op
     * classes, and its start instantiates and reflects over every op class, 0.1-0.2 s of CPU that would otherwise
     * fall inside the first check. Not before the backend: an op class's start may need ND4J's, and two threads
     * each starting a class the other's start waits for would wait forever. A failure here is left for the check
     * to meet.
     */
    public static void readDescriptorsInBackground() {
        if (!READER_STARTED.compareAndSet(false, true)) {
            return; // one reader per JVM (a test may serve several workers' loops in one)
        }
        Thread t = new Thread(() -> {
            try {
                OpCatalog.nd4j();
                if (!OpDescriptors.install()) {
                    org.nd4j.ir.OpDescriptorHolder.opList(); // no binary copy: ND4J's own parse of its text
                }
                startRegistrysHelpers();
                if (BACKEND_LOADED.await(10, java.util.concurrent.TimeUnit.MINUTES)) {
                    org.nd4j.imports.converters.DifferentialFunctionClassHolder.getInstance();
                }
            } catch (RuntimeException | LinkageError | InterruptedException e) {
                // the check that needs them reads them again and reports what goes wrong
            }
        }, "gradcheck-read-descriptors");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Starts, while ND4J's backend loads, two things SameDiff's registry starts first thing once it has: the JDK's
     * secure random source ({@code UUID.randomUUID}, which names each of the ~700 op instances the registry makes)
     * and ND4J's JSON mapper class (the registry reads ONNX's op list through a new one). Neither needs ND4J's
     * backend or an op class, and both would otherwise start on the first check's way, in the registry.
     */
    private static void startRegistrysHelpers() {
        java.util.UUID.randomUUID();
        try {
            Class.forName("org.nd4j.shade.jackson.databind.ObjectMapper", true, Nd4jStartup.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            // another ND4J: its registry starts its own
        }
    }

    /**
     * Loads ND4J's backend in this JVM, if no one has, then lets the background reader start SameDiff's registry.
     * Before it returns, ND4J's op descriptors are in place ({@link OpDescriptors#install}: done here if the reader
     * has not begun it, waited for if it has), so that no check, all of which start after this call, can find
     * ND4J's holder of them half set up.
     */
    public static void backendLoaded() {
        org.nd4j.linalg.factory.Nd4j.getBackend();
        OpDescriptors.install();
        BACKEND_LOADED.countDown();
    }
}
