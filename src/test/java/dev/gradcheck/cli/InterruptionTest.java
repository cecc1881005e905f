package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A signal at each moment of a check after its arguments are parsed: before the report's writer is ready the
 * hook waits for it (the JVM ends when the hook returns, so returning early would lose the report); then it writes
 * the report of a run that has not started; once the run took over, it interrupts the run.
 */
class InterruptionTest {

    @Test
    void aSignalBeforeTheWriterIsReadyWaitsForItAndWritesTheReport() throws Exception {
        Interruption interruption = new Interruption();
        List<String> done = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> hook = CompletableFuture.runAsync(interruption::interrupt);
        Thread.sleep(200); // the project file is being read
        assertFalse(hook.isDone(), "the hook waits for the report's writer");
        interruption.then(() -> done.add("empty report"));
        hook.get(10, TimeUnit.SECONDS);
        assertEquals(List.of("empty report"), done);
        assertFalse(interruption.then(() -> done.add("run")), "the run must not start after the signal");
    }

    @Test
    void onceTheRunTookOverTheSignalInterruptsTheRun() {
        Interruption interruption = new Interruption();
        List<String> done = new CopyOnWriteArrayList<>();
        interruption.then(() -> done.add("empty report"));
        assertTrue(interruption.then(() -> done.add("run interrupted")));
        interruption.interrupt();
        assertEquals(List.of("run interrupted"), done);
    }

    @Test
    void aCommandThatEndedWithoutAReportLetsTheSignalEndAtOnce() throws Exception {
        Interruption interruption = new Interruption();
        interruption.over(); // a usage error, or --collect-only
        CompletableFuture.runAsync(interruption::interrupt).get(5, TimeUnit.SECONDS);
    }
}
