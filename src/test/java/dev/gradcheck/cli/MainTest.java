package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which command lines start a worker before they are parsed (a wrong guess only costs a killed JVM). */
class MainTest {

    @Test
    void aCheckInWorkersStartsOneEarly() {
        assertTrue(Main.startsWorker(new String[] {"check", "specs/"}));
        assertTrue(Main.startsWorker(new String[] {"check", "--format", "json", "specs/", "--jobs", "2"}));
    }

    @Test
    void anythingElseDoesNot() {
        for (String[] args : new String[][] {{}, {"list-ops"}, {"validate", "specs/"},
            {"validate", "--static", "specs/"}, {"--help"},
            {"validate", "--in-process", "specs/"}, {"check", "--collect-only", "specs/"},
            {"check", "--in-process", "specs/"}, {"check", "--help"}, {"check", "-h"}, {"check", "--version"},
            {"bench"}, {"coverage"}, {"specs/", "check"}}) {
            assertFalse(Main.startsWorker(args), String.join(" ", args));
        }
    }

    @Test
    void onlyTheShellsWorkerServesASession() {
        assertEquals(dev.gradcheck.backend.WorkerOptions.Lifetime.SESSION, Main.lifetime(new String[] {"shell"}));
        for (String[] args : new String[][] {{"check", "specs/"}, {"validate", "specs/"}, {"explain", "a.yaml"}, {}}) {
            assertEquals(dev.gradcheck.backend.WorkerOptions.Lifetime.ONE_COMMAND, Main.lifetime(args),
                    String.join(" ", args));
        }
    }
}
