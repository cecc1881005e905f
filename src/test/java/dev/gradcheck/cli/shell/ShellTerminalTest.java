package dev.gradcheck.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.ExternalTool;
import dev.gradcheck.cli.term.TerminalSession;
import dev.gradcheck.cli.term.TmuxSession;
import dev.gradcheck.op.plugin.PluginJars;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
    private static final String SCRIPT_MISSING = "util-linux's script is not installed (apt-get install -y bsdutils)";

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
        ExternalTool.needed(TerminalSession.available(), SCRIPT_MISSING);
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
            assertTrue(t.text().contains("FAILED  tanh-small  tanh  float64  d0/dx"), t.text());
            assertTrue(t.raw().contains("\u001b[31mFAILED\u001b[0m"), "results are coloured at a terminal");
            t.type("unset delta\rr\r");
            at = t.waitFor("1 check: 1 passed, 0 failed", at, CHECK);
            assertTrue(t.text().substring(at - 200).contains("passed  tanh-small"), t.text());
            at = t.waitFor("was FAILED, worst d0/dx rel err", at, CHECK); // what the re-check changed
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
        ExternalTool.needed(TerminalSession.available(), SCRIPT_MISSING);
        try (TerminalSession t = TerminalSession.start(dir, "dumb", 80,
                List.of("shell", "--no-history"))) {
            int at = t.waitFor("gradcheck> ", 0, START);
            assertTrue(t.text().substring(0, at).contains(Shell.HINT), "a one-line hint before the first prompt: "
                    + t.text());
            t.type("load " + spec + "\r");
            at = t.waitFor("gradcheck tanh-small> ", at, CHECK);
            t.type("check\r");
            t.waitFor("1 check: 1 passed, 0 failed", at, CHECK);
            t.type("frobnicate\r");
            t.waitFor("unknown command 'frobnicate'; 'help' lists them", at, CHECK);
            t.type("exit\r");
            assertEquals(0, t.exitCode(CHECK), t.text());
            assertFalse(t.raw().contains("\u001b"), "no escape sequence on a dumb terminal:\n" + t.raw());
            assertTrue(t.text().contains("passed  tanh-small  tanh  float64"), t.text());
        }
        assertFalse(Files.exists(dir.resolve(".gradcheck_history")), "--no-history keeps none");
    }

    @Test
    void theScreenListsCandidatesInColumnsAndCtrlCStopsACheckNotTheShell() throws Exception {
        ExternalTool.needed(TmuxSession.available(), "tmux is not installed (apt-get install -y tmux)");
        Path running = dir.resolve("running");
        Path hangs = Files.writeString(dir.resolve("hangs.yaml"), "name: hangs\nop: test_hangs\nattrs: {marker: '"
                + running + "'}\ninputs:\n  x: {shape: [2]}\n");
        try (TmuxSession t = TmuxSession.start(dir, 100, 40, List.of("shell", spec.toString(), "--history",
                history.toString(), "--plugin", hangingPlugin().toString()))) {
            t.waitFor("gradcheck tanh-small>", START); // (screen rows lose their trailing blanks)
            t.keys("set tol", "Tab", "Tab");
            List<String> screen = t.waitFor("tolerance.atol", CHECK);
            assertTrue(screen.stream().anyMatch(l -> l.contains("tolerance.rtol")), String.join("\n", screen));
            assertTrue(screen.stream().anyMatch(l -> l.matches("tolerance[.\\w]*\\s+tolerance\\.\\w+")),
                    "candidates side by side:\n" + String.join("\n", screen));
            t.keys("C-u", "check", "Enter");
            screen = t.waitFor("1 check: 1 passed, 0 failed", CHECK);
            assertTrue(screen.stream().anyMatch(l -> l.startsWith("passed  tanh-small  tanh")), String.join("\n", screen));

            t.keys("load " + hangs, "Enter", "check", "Enter");
            awaitFile(running, CHECK); // Ctrl-C while the check runs (it never ends by itself)
            // a sign of life under a long check (issue 26, item 9): the time it has taken, redrawn each second
            screen = t.waitFor("checking hangs: ", CHECK);
            assertTrue(screen.stream().anyMatch(l -> l.matches("checking hangs: \\d+ s elapsed \\(Ctrl-C stops it\\)")),
                    String.join("\n", screen));
            t.keys("C-c");
            t.waitFor("interrupted; the worker is being restarted", CHECK);
            t.waitFor("gradcheck hangs>", 2, CHECK); // a prompt again: the shell is still there
            t.keys("load " + spec, "Enter", "check", "Enter");
            screen = t.waitFor("1 check: 1 passed, 0 failed (", 2, CHECK);
            assertEquals(2, screen.stream().filter(l -> l.startsWith("passed  tanh-small")).count(),
                    "the shell goes on after Ctrl-C, on a fresh worker:\n" + String.join("\n", screen));
            t.keys("explain", "Enter");
            screen = t.waitFor("(colour: blue negative", CHECK);
            assertTrue(screen.stream().anyMatch(l -> l.contains("numerical") && l.contains("|analytic - numerical|")),
                    "a terminal gets the three maps side by side, in colour:\n" + String.join("\n", screen));
            t.keys("exit", "Enter");
            assertEquals(0, t.exitCode(CHECK));
        }
    }

    /**
     * A plugin jar with the op {@code test_hangs}: its forward creates the file its {@code marker} attribute names,
     * then sleeps for ten minutes. The file proves the check is running in the worker, and a check that cannot end
     * by itself cannot finish before the Ctrl-C (a real op, however large, does on a fast enough machine).
     */
    private Path hangingPlugin() throws IOException {
        String source = """
                package testplugins;
                import dev.gradcheck.spi.Operator;
                import java.nio.file.Files;
                import java.nio.file.Path;
                import java.util.List;
import java.util.Map;
                import java.util.Map;
                import org.nd4j.linalg.api.ndarray.INDArray;
                public class Hangs implements Operator {
                    public String name() { return "test_hangs"; }
                    public List<String> inputNames() { return List.of("x"); }
                    public List<String> outputNames() { return List.of("y"); }
                    public List<String> attributeNames() { return List.of("marker"); }
                    public Map<String, INDArray> forward(Map<String, INDArray> in, Map<String, Object> attrs) {
                        try {
                            Files.writeString(Path.of((String) attrs.get("marker")), "running");
                            Thread.sleep(600_000);
                        } catch (java.io.IOException | InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        return Map.of("y", in.get("x").dup());
                    }
                    public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                                          Map<String, INDArray> grads, Map<String, Object> attrs) {
                        return Map.of("x", grads.get("y").dup());
                    }
                }
                """;
        Path classes = PluginJars.classes(dir.resolve("plugin"), Map.of("testplugins/Hangs.java", source),
                List.of("testplugins.Hangs"));
        return PluginJars.jar(classes, dir.resolve("hangs.jar"));
    }

    /** Polls for {@code file} until {@code timeout}: the event a test waits for, not a guess at how long it takes. */
    private static void awaitFile(Path file, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(file)) {
            assertTrue(System.nanoTime() < end, file + " did not appear within " + timeout.toSeconds() + " s");
            Thread.sleep(100);
        }
    }
}
