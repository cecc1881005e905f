package dev.gradcheck.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gradcheck.cli.term.TerminalSession;
import dev.gradcheck.cli.term.TmuxSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gradcheck shell} at a terminal, driven as a person drives it: keys typed into a pseudo-terminal, and the
 * assertions on what the terminal shows. {@code script} (util-linux, on every Debian) runs the first two tests
 * everywhere; the third reads tmux's rendered screen and is skipped where tmux is not installed.
 */
@Tag("slow") // a front-end JVM and its worker per test
class ShellTerminalTest {

    private static final Duration START = Duration.ofSeconds(120);
    private static final Duration CHECK = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    Path spec;
    Path history;

    @BeforeEach
    void files() throws IOException {
        spec = Files.writeString(dir.resolve("tanh.yaml"),
                "name: tanh-small\nop: tanh\ninputs:\n  x: {shape: [3, 4], init: {uniform: [-2, 2]}}\n");
        history = dir.resolve("history");
    }

    @Test
    void tabCompletesCommandsAndKeysAReCheckShowsTheEditAndTheHistoryIsKept() throws Exception {
        assumeTrue(TerminalSession.available(), "util-linux script is not installed");
        try (TerminalSession t = TerminalSession.start(dir, "xterm", 100,
                List.of("shell", spec.toString(), "--history", history.toString()))) {
            int at = t.waitFor("gradcheck tanh-small> ", 0, START);
            t.type("se\t");
            at = t.waitFor("gradcheck tanh-small> set ", at - 22, CHECK); // the verb completed
            t.type("del\t");
            at = t.waitFor("set delta ", at - 4, CHECK); // the spec key completed
            t.type("2\r"); // far too coarse (0.5 passes within the finite differences' measured error)
            at = t.waitFor("gradcheck tanh-small*> ", at, CHECK); // edited: the prompt says so
            t.type("chec\t\r");
            at = t.waitFor("1 check: 0 passed, 1 failed", at, CHECK);
            assertTrue(t.text().contains("FAIL    tanh-small  tanh  float64  d0/dx"), t.text());
            assertTrue(t.raw().contains("\u001b[31mFAIL\u001b[0m"), "results are coloured at a terminal");
            t.type("unset delta\rr\r");
            at = t.waitFor("1 check: 1 passed, 0 failed", at, CHECK);
            assertTrue(t.text().substring(at - 200).contains("pass    tanh-small"), t.text());
            at = t.waitFor("was FAIL, worst d0/dx rel err", at, CHECK); // what the re-check changed
            t.type("mode \t");
            at = t.waitFor("fast", at, CHECK); // the values a key takes: both modes listed
            assertTrue(t.text().substring(at - 60).contains("full"), t.text());
            t.type("\u0015exit\r");
            assertEquals(0, t.exitCode(CHECK), t.text());
        }
        List<String> kept = Files.readAllLines(history);
        assertTrue(kept.stream().anyMatch(l -> l.endsWith("set delta 2")), "history: " + kept);
        assertTrue(kept.stream().anyMatch(l -> l.endsWith("unset delta")), "history: " + kept);
    }

    @Test
    void onADumbTerminalTheShellWorksWithoutEscapeSequences() throws Exception {
        assumeTrue(TerminalSession.available(), "util-linux script is not installed");
        try (TerminalSession t = TerminalSession.start(dir, "dumb", 80,
                List.of("shell", "--no-history"))) {
            int at = t.waitFor("gradcheck> ", 0, START);
            t.type("load " + spec + "\r");
            at = t.waitFor("gradcheck tanh-small> ", at, CHECK);
            t.type("check\r");
            t.waitFor("1 check: 1 passed, 0 failed", at, CHECK);
            t.type("frobnicate\r");
            t.waitFor("unknown command 'frobnicate'; 'help' lists them", at, CHECK);
            t.type("exit\r");
            assertEquals(0, t.exitCode(CHECK), t.text());
            assertFalse(t.raw().contains("\u001b"), "no escape sequence on a dumb terminal:\n" + t.raw());
            assertTrue(t.text().contains("pass    tanh-small  tanh  float64"), t.text());
        }
        assertFalse(Files.exists(dir.resolve(".gradcheck_history")), "--no-history keeps none");
    }

    @Test
    void theScreenListsCandidatesInColumnsAndCtrlCStopsACheckNotTheShell() throws Exception {
        assumeTrue(TmuxSession.available(), "tmux is not installed");
        Path big = Files.writeString(dir.resolve("big.yaml"),
                "name: tanh-big\nop: tanh\ninputs:\n  x: {shape: [60, 60], init: {uniform: [-2, 2]}}\n");
        try (TmuxSession t = TmuxSession.start(dir, 100, 40, List.of("shell", spec.toString(), "--history",
                history.toString()))) {
            t.waitFor("gradcheck tanh-small>", START); // (screen rows lose their trailing blanks)
            t.keys("set tol", "Tab", "Tab");
            List<String> screen = t.waitFor("tolerance.atol", CHECK);
            assertTrue(screen.stream().anyMatch(l -> l.contains("tolerance.rtol")), String.join("\n", screen));
            assertTrue(screen.stream().anyMatch(l -> l.matches("tolerance[.\\w]*\\s+tolerance\\.\\w+")),
                    "candidates side by side:\n" + String.join("\n", screen));
            t.keys("C-u", "check", "Enter");
            screen = t.waitFor("1 check: 1 passed, 0 failed", CHECK);
            assertTrue(screen.stream().anyMatch(l -> l.startsWith("pass    tanh-small  tanh")), String.join("\n", screen));

            t.keys("load " + big, "Enter", "check", "Enter");
            t.waitFor("gradcheck tanh-big> check", CHECK);
            Thread.sleep(1500); // into the check
            t.keys("C-c");
            t.waitFor("interrupted; the worker is being restarted", CHECK);
            t.waitFor("gradcheck tanh-big>", 2, CHECK); // a prompt again: the shell is still there
            t.keys("load " + spec, "Enter", "check", "Enter");
            screen = t.waitFor("1 check: 1 passed, 0 failed (", 2, CHECK);
            assertEquals(2, screen.stream().filter(l -> l.startsWith("pass    tanh-small")).count(),
                    "the shell goes on after Ctrl-C, on a fresh worker:\n" + String.join("\n", screen));
            t.keys("explain", "Enter");
            screen = t.waitFor("(colour: blue negative", CHECK);
            assertTrue(screen.stream().anyMatch(l -> l.contains("numerical") && l.contains("|analytic - numerical|")),
                    "a terminal gets the three maps side by side, in colour:\n" + String.join("\n", screen));
            t.keys("exit", "Enter");
            assertEquals(0, t.exitCode(CHECK));
        }
    }
}
