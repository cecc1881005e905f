package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --junit-file-line}: test cases with their file and line on request, schema-valid without (item 10). */
class JUnitFileLineTest {

    @TempDir
    Path dir;

    @Test
    void theOptionAndTheProjectFileKeyAddFileAndLineToTestCases() throws IOException {
        Path spec = Files.writeString(dir.resolve("t.yaml"), "name: t\nop: tanh\ninputs:\n  x: {shape: [2]}\n");
        Cli plain = Cli.run("check", spec.toString(), "--in-process", "--format", "junit");
        assertEquals(0, plain.exit(), plain.err());
        assertFalse(plain.out().matches("(?s).*<testcase [^>]*file=.*"), plain.out());
        Cli placed = Cli.run("check", spec.toString(), "--in-process", "--format", "junit", "--junit-file-line");
        assertTrue(placed.out().matches("(?s).*<testcase [^>]*file=\"[^\"]*t.yaml\" line=\"1\".*"), placed.out());
        Files.writeString(dir.resolve("gradcheck.yaml"), "check:\n  junit_file_line: true\n");
        Cli fromFile = Cli.runIn(dev.gradcheck.cli.options.Workspace.at(dir, java.util.Map.of()), "check",
                spec.toString(), "--in-process", "--format", "junit");
        assertTrue(fromFile.out().matches("(?s).*<testcase [^>]*line=\"1\".*"), fromFile.out() + fromFile.err());
    }
}
