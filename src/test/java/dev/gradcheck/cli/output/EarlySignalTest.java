package dev.gradcheck.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.report.ReportFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A signal before {@code check}'s arguments are parsed leaves a report marked interrupted at {@code --output}, not
 * none (issue 36, item 9: the stale report was removed, and nothing written in its place).
 */
class EarlySignalTest {

    @TempDir
    Path dir;

    @Test
    void sigtermBeforeTheCommandLineIsReadWritesAnInterruptedReport() throws Exception {
        Path report = Files.writeString(dir.resolve("r.json"), "{\"stale\": true}");
        Path marker = dir.resolve("watching");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                EarlySignalMain.class.getName(), marker.toString(), "check", "specs", "--format", "json", "--output",
                report.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("said.txt").toFile()).start();
        awaitFile(marker);
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String said = Files.readString(dir.resolve("said.txt"));
        assertEquals(143, p.exitValue(), said);
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertTrue(json.path("summary").path("interrupted").asBoolean(), json.toString());
        assertEquals(143, json.path("summary").path("exit_code").asInt(), json.toString());
        assertEquals(0, json.path("checks").size());
        assertTrue(said.contains("interrupted by SIGTERM before the command line was read"), said);
    }

    @Test
    void theFormatIsTheCommandLinesElseTheTable() {
        assertEquals(ReportFormat.JUNIT, EarlySignal.formatOf(new String[] {"check", "--format=junit", "-o", "r"}));
        assertEquals(ReportFormat.TABLE, EarlySignal.formatOf(new String[] {"check", "-o", "r"}));
        assertEquals(ReportFormat.TABLE, EarlySignal.formatOf(new String[] {"check", "--format", "nope", "-o", "r"}));
    }

    /** Waits, on the directory's events, for {@code file} to appear. */
    private static void awaitFile(Path file) throws Exception {
        try (WatchService watch = file.getFileSystem().newWatchService()) {
            file.getParent().register(watch, StandardWatchEventKinds.ENTRY_CREATE,
                    StandardWatchEventKinds.ENTRY_MODIFY);
            while (!Files.exists(file)) {
                var key = watch.poll(60, TimeUnit.SECONDS);
                assertTrue(key != null, "the JVM started watching");
                key.pollEvents();
                key.reset();
            }
        }
    }
}
