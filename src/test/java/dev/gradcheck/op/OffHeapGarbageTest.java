package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When a DL4J call's off-heap garbage asks for a collection: growth past the step above the floor, and only then. */
class OffHeapGarbageTest {

    private final AtomicLong resident = new AtomicLong(1000);
    private final AtomicInteger collections = new AtomicInteger();
    private final OffHeapGarbage garbage = new OffHeapGarbage(resident::get, collections::incrementAndGet, 100);

    @Test
    void growthWithinTheStepCollectsNothing() {
        resident.set(1100);
        assertFalse(garbage.collectIfGrown());
        assertEquals(0, collections.get());
    }

    @Test
    void growthPastTheStepCollectsOnce() {
        resident.set(1101);
        assertTrue(garbage.collectIfGrown());
        assertFalse(garbage.collectIfGrown(), "nothing grew since: no second collection");
        assertEquals(1, collections.get());
    }

    @Test
    void theFloorFallsWithTheGarbageFreedAfterACollection() {
        resident.set(1500);
        assertTrue(garbage.collectIfGrown());
        resident.set(1000); // the deallocator threads freed it
        assertFalse(garbage.collectIfGrown());
        resident.set(1150);
        assertTrue(garbage.collectIfGrown(), "grown past the step above the fallen floor");
    }

    @Test
    void aProcessThatReallyHoldsMoreIsNotCollectedOnEveryCall() {
        resident.set(1500);
        assertTrue(garbage.collectIfGrown());
        for (int call = 0; call < 10; call++) {
            resident.set(1500 + call * 10);
            garbage.collectIfGrown();
        }
        assertEquals(1, collections.get(), "no garbage left to free: the floor moved up with it");
    }
}
