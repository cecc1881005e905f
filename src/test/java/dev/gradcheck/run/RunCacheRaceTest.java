package dev.gradcheck.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs that end together on one cache lose no entry: each reads, merges and writes under the cache's lock (eight
 * runs at once kept 5 or 6 of their 8 failures in lastfailed.json, so --last-failed skipped real failures).
 */
class RunCacheRaceTest {

    @TempDir
    Path dir;

    @Test
    void eightProcessesRecordingAtOnceKeepEveryFailure() throws IOException, InterruptedException {
        int processes = 8;
        int runsEach = 20;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> started = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            started.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    CacheWriterMain.class.getName(), dir.toString(), "p" + p, Integer.toString(runsEach))
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(dir.resolve("out-" + p + ".txt").toFile()).start());
        }
        for (Process p : started) {
            assertEquals(0, p.waitFor());
        }
        Map<String, String> failed = new RunCache(dir, w -> { }).lastFailed();
        assertEquals(processes * runsEach, failed.size(), "every run's failure is kept: " + failed.keySet());
        assertEquals("failed", failed.get("specs.yaml::p3-7"));
        assertEquals(false, new File(dir.toFile(), ".lock").length() > 0, "the lock holds nothing");
    }
}
