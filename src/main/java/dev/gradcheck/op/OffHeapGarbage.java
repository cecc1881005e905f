package dev.gradcheck.op;

import java.util.function.LongSupplier;
import org.bytedeco.javacpp.Pointer;

/**
 * Asks the JVM for a collection when the process has grown by a quarter of its heap since the last one. A DL4J
 * layer leaves every array of a forward or backward pass to Java's collector, and ND4J allocates their data off the
 * heap, where the collector does not see it: the heap holds only small wrappers, so it may not collect for
 * thousands of calls while the process grows by gigabytes (CnnLossLayer on 8×64×28×28, 25 MB a forward: 22 GB
 * resident before the kernel killed it, at -Xmx2g; LocallyConnected1D on 8×64×256: 12 to 15 GB). ND4J's own
 * periodic collection is off by default and nothing in ND4J M2.1 calls it. A collection frees no value a check
 * reads: verdicts are the same with or without it.
 */
final class OffHeapGarbage {

    private static final OffHeapGarbage PROCESS = new OffHeapGarbage(Pointer::physicalBytes, System::gc,
            Runtime.getRuntime().maxMemory() / 4);

    private final LongSupplier resident;
    private final Runnable collect;
    private final long step;
    /** The least resident size seen since the last collection: what the process holds once its garbage is gone. */
    private long floor;

    /**
     * @param resident the process's resident bytes now
     * @param collect  a collection
     * @param step     growth in bytes that asks for one
     */
    OffHeapGarbage(LongSupplier resident, Runnable collect, long step) {
        this.resident = resident;
        this.collect = collect;
        this.step = step;
        this.floor = resident.getAsLong();
    }

    /** After a DL4J call: a collection if the process has grown by the step since the last one. */
    static void afterCall() {
        PROCESS.collectIfGrown();
    }

    /** Whether it collected: the process grew by more than the step above its floor. */
    synchronized boolean collectIfGrown() {
        long now = resident.getAsLong();
        floor = Math.min(floor, now);
        if (now <= floor + step) {
            return false;
        }
        collect.run();
        // ND4J's deallocator threads free the data after the collection, so the size read now may still hold it:
        // the floor starts here and falls with the sizes read later, and a process that really holds more (no
        // garbage left) is not collected again until it grows by another step
        floor = resident.getAsLong();
        return true;
    }
}
