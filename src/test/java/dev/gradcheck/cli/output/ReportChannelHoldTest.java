package dev.gradcheck.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report held back while the front end's JVM checks (backend.SharedJvm): nothing reaches stdout until it is let
 * out, so a JVM that dies before then has printed nothing the launcher's rerun would print again.
 */
class ReportChannelHoldTest {

    @TempDir
    Path dir;

    @Test
    void heldBytesWaitForTheReleaseAndLaterOnesGoStraightOut() throws IOException {
        Path file = dir.resolve("stdout");
        try (FileOutputStream real = new FileOutputStream(file.toFile())) {
            ReportChannel channel = ReportChannel.of(real.getFD());
            channel.write("before\n".getBytes(StandardCharsets.UTF_8));
            channel.hold();
            channel.write("held\n".getBytes(StandardCharsets.UTF_8));
            channel.flush(); // a print writer's autoflush: still held
            assertEquals("before\n", Files.readString(file));
            channel.release();
            assertEquals("before\nheld\n", Files.readString(file));
            channel.write("after\n".getBytes(StandardCharsets.UTF_8));
            channel.release(); // a second release (the shutdown hook's) changes nothing
            assertEquals("before\nheld\nafter\n", Files.readString(file));
            assertNull(channel.failure());
        }
    }

    @Test
    void aReleaseThatCannotBeWrittenIsNotedAsAnyWrite() throws IOException {
        try (FileOutputStream full = new FileOutputStream("/dev/full")) {
            ReportChannel channel = ReportChannel.of(full.getFD());
            channel.hold();
            channel.write("a report\n".getBytes(StandardCharsets.UTF_8));
            assertNull(channel.failure(), "nothing written yet");
            channel.release();
            assertTrue(channel.failure() != null && channel.failure().contains("No space left"), channel.failure());
        }
    }
}
