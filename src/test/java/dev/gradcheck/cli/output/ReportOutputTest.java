package dev.gradcheck.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.cli.CheckCommandTest;
import dev.gradcheck.cli.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --output}: a regular file is replaced whole; anything else is written in place, never replaced by a
 * regular file; a report that cannot be written in full is an error exit. Devices are reached through links in a
 * temporary directory, so that a regression replaces the link, never /dev/null or /dev/full themselves.
 */
class ReportOutputTest {

    @TempDir
    Path dir;

    private Path spec;

    @BeforeEach
    void writeSpec() throws IOException {
        spec = dir.resolve("tanh.yaml");
        Files.writeString(spec, CheckCommandTest.TANH);
    }

    private Cli checkTo(Path output) {
        return Cli.run("check", spec.toString(), "--format", "json", "--output", output.toString());
    }

    @Test
    void aDeviceIsWrittenInPlaceNotReplacedByAFile() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("null.json"), Path.of("/dev/null"));
        Cli r = checkTo(link);
        assertEquals(0, r.exit(), r.err());
        assertTrue(Files.isSymbolicLink(link), "the link, and the device behind it, are left as they were");
        assertFalse(Files.isRegularFile(Path.of("/dev/null")));
    }

    @Test
    void aFifoIsWrittenInPlaceForItsReader() throws Exception {
        Path fifo = dir.resolve("report.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readString(fifo);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Cli r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> checkTo(fifo));
        assertEquals(0, r.exit(), r.err());
        assertFalse(Files.isRegularFile(fifo), "still a FIFO, not replaced by a file its reader never sees");
        String report = reader.get(60, TimeUnit.SECONDS);
        assertEquals("passed", new ObjectMapper().readTree(report).at("/checks/0/status").asText(), report);
    }

    @Test
    void aFullDeviceIsAnErrorExitWithTheReasonNotASilentZero() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("full.json"), Path.of("/dev/full"));
        Cli r = checkTo(link);
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("gradcheck: cannot write the report to " + link + ": No space left on device"),
                r.err());
        assertTrue(Files.isSymbolicLink(link));
    }

    @Test
    void aLinkToARegularFileKeepsTheLinkAndReplacesTheFile() throws IOException {
        Path real = Files.writeString(dir.resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), real);
        Cli r = checkTo(link);
        assertEquals(0, r.exit(), r.err());
        assertTrue(Files.isSymbolicLink(link));
        assertTrue(Files.readString(real).startsWith("{"), "the file behind the link holds the report");
    }

    @Test
    void aReplacedReportKeepsItsPermissionsAndANewOneIsReadable() throws IOException {
        Path kept = Files.writeString(dir.resolve("kept.json"), "old");
        Files.setPosixFilePermissions(kept, PosixFilePermissions.fromString("rw-r-----"));
        assertEquals(0, checkTo(kept).exit());
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)));
        Path fresh = dir.resolve("fresh.json");
        assertEquals(0, checkTo(fresh).exit());
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)),
                "not the private mode of a temporary file");
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().startsWith(".gradcheck-")), "no temp left");
        }
    }

    @Test
    void aDirectoryIsRefusedByName() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("out"));
        Cli r = checkTo(sub);
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("gradcheck: cannot write the report to " + sub + ": is a directory"), r.err());
    }

    /** A CI artifact under a directory not made yet: the directories are made, the report written. */
    @Test
    void missingDirectoriesAreMadeForTheReport() throws IOException {
        Path report = dir.resolve("build/reports/gradcheck.json");
        Cli r = checkTo(report);
        assertEquals(0, r.exit(), r.err());
        assertEquals("passed", new ObjectMapper().readTree(report.toFile()).at("/checks/0/status").asText());
    }

    /** merge readies its --output the same way: missing directories made, a path through a file refused. */
    @Test
    void mergeMakesMissingDirectoriesAndRefusesAPathThroughAFile() throws IOException {
        Path shard = dir.resolve("shard.json");
        assertEquals(0, checkTo(shard).exit());
        Path merged = dir.resolve("ci/reports/merged.xml");
        Cli r = Cli.run("merge", shard.toString(), "--format", "junit", "--output", merged.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(Files.readString(merged).contains("<testsuite"), Files.readString(merged));
        Path through = shard.resolve("merged.xml");
        Cli refused = Cli.run("merge", shard.toString(), "--format", "junit", "--output", through.toString());
        assertEquals(2, refused.exit(), refused.err());
        assertTrue(refused.err().startsWith("gradcheck: cannot write the report to " + through + ": "), refused.err());
    }

    /**
     * A report that cannot be written is refused before any check runs, so a long run's results are not lost at its
     * end: a directory, a path through a regular file. No engine is even asked for.
     */
    @Test
    void anOutputThatCannotBeWrittenIsRefusedBeforeAnyCheckRuns() throws IOException {
        Path file = Files.writeString(dir.resolve("file.txt"), "in the way");
        Path sub = Files.createDirectory(dir.resolve("a-directory"));
        for (Path output : java.util.List.of(file.resolve("report.json"), sub)) {
            java.util.concurrent.atomic.AtomicBoolean engineAsked = new java.util.concurrent.atomic.AtomicBoolean();
            Cli r = Cli.run(() -> {
                engineAsked.set(true);
                throw new IllegalStateException("no check should run");
            }, "check", spec.toString(), "--format", "json", "--output", output.toString());
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().startsWith("gradcheck: cannot write the report to " + output + ": "), r.err());
            assertFalse(engineAsked.get(), "refused before any check: " + r.err());
            assertEquals("", r.out());
            assertTrue(r.err().endsWith(output.equals(sub) ? "is a directory\n" : "Not a directory: " + output + "\n"),
                    r.err());
        }
        assertEquals("in the way", Files.readString(file));
    }

    @Test
    void devStdoutMeansTheReportStream() throws IOException {
        // under bin/gradcheck the JVM's own fd 1 is stderr: opening /dev/stdout by path would report to stderr
        Cli r = checkTo(Path.of("/dev/stdout"));
        assertEquals(0, r.exit(), r.err());
        assertEquals("passed", new ObjectMapper().readTree(r.out()).at("/checks/0/status").asText(), r.out());
    }
}
