package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExitDescriptionTest {

    @Test
    void aSignalIsNamed() {
        assertEquals("worker crashed: killed by signal 11 (SIGSEGV)", ExitDescription.of(128 + 11, List.of()));
        assertTrue(ExitDescription.of(128 + 9, List.of()).contains("(SIGKILL); the system may have run out of memory"));
    }

    @Test
    void theJvmsFatalErrorBannerNamesTheNativeSignalBehindItsAbort() {
        List<String> tail = List.of("#", "# A fatal error has been detected by the Java Runtime Environment:", "#",
                "#  SIGSEGV (0xb) at pc=0x00007f3a, pid=4242, tid=4243", "#",
                "# Problematic frame:", "# C  [libnd4jcpu.so+0x1a2b3c]");
        String text = ExitDescription.of(128 + 6, tail);
        assertTrue(text.startsWith("worker crashed: SIGSEGV in native code (the JVM caught it and aborted: signal 6,"
                + " SIGABRT)"), text);
        // with -XX:-CreateCoredumpOnCrash (as workers run) the JVM exits with status 1 instead of aborting
        assertTrue(ExitDescription.of(1, tail).startsWith("worker crashed: SIGSEGV in native code (the JVM caught it"
                + " and exited with status 1)"), ExitDescription.of(1, tail));
        assertTrue(text.contains("\n  # C  [libnd4jcpu.so+0x1a2b3c]"), text);
        assertFalse(text.contains("\n  #\n"), "bare banner lines are left out: " + text);
    }

    @Test
    void javaStackFramesAreLeftOut() {
        String text = ExitDescription.of(3, List.of("java.lang.UnsatisfiedLinkError: libcuda.so.1: cannot open",
                "\tat org.bytedeco.javacpp.Loader.load(Loader.java:1402)", "\t... 2 more", "asked for cuda"));
        assertEquals("worker crashed: exited with status 3\nlast worker output:\n"
                + "  java.lang.UnsatisfiedLinkError: libcuda.so.1: cannot open\n  asked for cuda", text);
    }

    @Test
    void onlyTheLastLinesAreShown() {
        List<String> tail = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            tail.add("line " + i);
        }
        String text = ExitDescription.of(3, tail);
        assertTrue(text.startsWith("worker crashed: exited with status 3\nlast worker output:\n"), text);
        assertTrue(text.endsWith("  line 39"), text);
        assertFalse(text.contains("line 23\n"), "older lines dropped: " + text);
        assertEquals(ExitDescription.SHOWN_LINES + 2, text.lines().count());
    }
}
