package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class PeakResidentTest {

    private static long parse(String status) {
        byte[] bytes = status.getBytes(StandardCharsets.US_ASCII);
        return PeakResident.parse(bytes, bytes.length, PeakResident.PEAK);
    }

    @Test
    void readsVmHwmAndNotTheLinesAroundIt() {
        String status = "Name:\tjava\nVmPeak:\t 9999 kB\nVmSize:\t 8888 kB\nVmHWM:\t    2048 kB\nVmRSS:\t 1024 kB\n";
        assertEquals(2048L * 1024, parse(status));
    }

    @Test
    void readsTheResidentSizeFromTheSameText() {
        byte[] status = "VmHWM:\t    2048 kB\nVmRSS:\t 1024 kB\nRssAnon:\t 512 kB\n".getBytes(StandardCharsets.US_ASCII);
        assertEquals(1024L * 1024, PeakResident.parse(status, status.length, PeakResident.RESIDENT));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void oneReadGivesTheResidentSizeJavaCppReadsAndAPeakAboveIt() {
        // VmHWM is the larger of the recorded peak and the resident size at the read, so one read never has it below
        long before = org.bytedeco.javacpp.Pointer.physicalBytes();
        PeakResident.Sizes sizes = PeakResident.now();
        long after = org.bytedeco.javacpp.Pointer.physicalBytes();
        assertTrue(sizes.resident() > 0 && sizes.resident() <= sizes.peak(), sizes.toString());
        // statm and status count the same pages; the JVM may touch or free a few between the three reads
        assertTrue(sizes.resident() >= Math.min(before, after) / 2 && sizes.resident() <= Math.max(before, after) * 2,
                before + " " + sizes + " " + after);
    }

    @Test
    void aStatusWithoutTheLineOrCutBeforeItsValueTellsNothing() {
        assertEquals(0, parse("Name:\tjava\nVmRSS:\t 1024 kB\n"));
        assertEquals(0, parse("Name:\tjava\nVmHW"));
        assertEquals(0, parse(""));
        // a key must start its line: a value that merely contains it is not read
        assertEquals(0, parse("Name:\tVmHWM: 7 kB\n"));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void readsWhatTheStatusFileSaysBetweenTwoPlainReads() throws Exception {
        // the peak only grows: a read between two plain ones lies between them
        long before = plainRead();
        long read = PeakResident.now().peak();
        long again = PeakResident.now().peak();
        long after = plainRead();
        assertTrue(before > 0 && before <= read && read <= again && again <= after,
                before + " " + read + " " + again + " " + after);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aReadByAnInterruptedThreadLeavesLaterReadsWorking() throws Exception {
        // a check's time limit interrupts its threads: a kept FileChannel closes for good, and the gate went blind
        Thread.currentThread().interrupt();
        try {
            PeakResident.now().peak();
        } finally {
            Thread.interrupted();
        }
        long before = plainRead();
        long read = PeakResident.now().peak();
        assertTrue(before > 0 && before <= read && read <= plainRead(), before + " " + read);
    }

    private static long plainRead() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        return 0;
    }
}
