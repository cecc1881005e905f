package dev.gradcheck.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.cli.options.ColorMode;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.cli.term.Terminal;
import dev.gradcheck.report.ReportFormat;
import dev.gradcheck.report.RunDetails;
import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27: an earlier report at {@code check --output} is removed as the JVM starts, before the arguments are
 * parsed, so a signal then leaves no stale report; the new report still gets the old one's permissions.
 */
class StaleReportTest {

    @TempDir
    Path dir;

    @Test
    void theOutputIsReadAsPicocliReadsIt() {
        assertEquals(Path.of("r.json"), StaleReport.outputOf(new String[] {"check", "specs", "--output", "r.json"}));
        assertEquals(Path.of("r.json"), StaleReport.outputOf(new String[] {"check", "--output=r.json", "specs"}));
        assertEquals(Path.of("r.xml"), StaleReport.outputOf(new String[] {"check", "-o", "r.json", "-or.xml"}));
        assertNull(StaleReport.outputOf(new String[] {"merge", "a.json", "--output", "r.json"}), "check only");
        assertNull(StaleReport.outputOf(new String[] {"check", "--help", "--output", "r.json"}), "help runs nothing");
        assertNull(StaleReport.outputOf(new String[] {"check", "--", "--output", "r.json"}), "a path after --");
        assertNull(StaleReport.outputOf(new String[] {"check", "specs"}));
        assertNull(StaleReport.outputOf(new String[] {}));
    }

    @Test
    void anEarlierReportIsRemovedAtOnceAndTheNewOneKeepsItsPermissions() throws IOException {
        Path report = Files.writeString(dir.resolve("early.json"), "{\"stale\": true}");
        Files.setPosixFilePermissions(report, PosixFilePermissions.fromString("rw-r-----"));
        StaleReport.removeEarly(new String[] {"check", "specs", "--output", report.toString()});
        assertTrue(Files.notExists(report), "gone before any argument was parsed");

        StringWriter err = new StringWriter();
        Console console = new Console(new PrintWriter(new StringWriter()), new PrintWriter(err));
        ReportWriter writer = new ReportWriter(console, ReportFormat.JSON, report, ColorMode.NEVER, false,
                Terminal.none());
        assertTrue(writer.prepare(), err.toString());
        assertTrue(writer.write(List.of(), Summary.of(List.of(), 0.1, 2), false, RunDetails.NONE), err.toString());
        assertTrue(Files.readString(report).contains("\"schema\": \"gradcheck-report\""));
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(report)),
                "the permissions of the report it replaced");
    }

    /** A link, a directory and a device are ReportWriter's to handle once the arguments are parsed. */
    @Test
    void onlyAPlainRegularFileIsRemovedEarly() throws IOException {
        Path real = Files.writeString(dir.resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), real);
        Path directory = Files.createDirectory(dir.resolve("reports"));
        for (Path p : new Path[] {link, directory, Path.of("/dev/null")}) {
            StaleReport.removeEarly(new String[] {"check", "specs", "-o", p.toString()});
            assertTrue(Files.exists(p), p + " left");
        }
        assertEquals("old", Files.readString(real), "the file behind the link is untouched here");
        Path other = Files.writeString(dir.resolve("other.json"), "old");
        StaleReport.removeEarly(new String[] {"validate", "specs", "--output", other.toString()});
        assertTrue(Files.exists(other), "not a check");
    }
}
