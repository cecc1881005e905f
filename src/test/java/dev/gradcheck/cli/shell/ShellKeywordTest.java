package dev.gradcheck.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shell's check takes -k as the command line's does, did-you-mean included. */
class ShellKeywordTest {

    @TempDir
    Path dir;

    @Test
    void checkInTheShellTakesK() throws Exception {
        Files.writeString(dir.resolve("c.yaml"), "name: cumprod-axis0\nop: cumprod\ninputs:\n  x: {shape: [3]}\n"
                + "---\nname: cumsum-axis0\nop: cumsum\ninputs:\n  x: {shape: [3]}\n");
        ShellRun run = ShellRun.inProcess("check " + dir + " --collect-only -k 'sum'\ncheck " + dir + " -k cumprd\n"
                + "exit\n");
        assertTrue(run.out().contains("cumsum-axis0") && !run.out().contains("cumprod-axis0"), run.out());
        assertTrue(run.err().contains("did you mean 'cumprod'?"), run.err());
        assertEquals(2, run.exit());
    }
}
