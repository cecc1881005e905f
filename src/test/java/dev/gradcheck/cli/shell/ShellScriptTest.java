package dev.gradcheck.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gradcheck shell} reading a script (piped input), checking in this JVM: the verbs, their errors, the exit
 * code. The same shell with its warm worker JVM is {@link ShellWorkerTest}; at a terminal, {@link ShellTerminalTest}.
 */
public class ShellScriptTest {

    @TempDir
    Path dir;

    /** A spec whose check passes in a fraction of a second. */
    public static final String TANH_SMALL =
            "name: tanh-small\nop: tanh\ninputs:\n  x: {shape: [3, 4], init: {uniform: [-2, 2]}}\n";

    Path tanh;

    @BeforeEach
    void spec() throws IOException {
        tanh = Files.writeString(dir.resolve("tanh.yaml"), TANH_SMALL);
    }

    @Test
    void aScriptLoadsChecksEditsAndChecksAgain() {
        ShellRun run = ShellRun.inProcess("load " + tanh + "\ncheck\nset delta 2\ncheck\nexit\n");
        List<String> rows = rows(run.out());
        assertEquals(2, rows.size(), run.out());
        assertTrue(rows.get(0).startsWith("passed  tanh-small  tanh"), run.out());
        assertTrue(rows.get(1).startsWith("FAILED  tanh-small  tanh"),
                "a step of 2 is far too coarse (0.5 is not: the finite differences measure their own error at a"
                        + " half step and pass it, docs/checking.md): " + run.out());
        assertTrue(run.out().contains("d0/dx: mismatch"), run.out());
        assertTrue(run.err().contains("loaded tanh-small (tanh, x[3, 4] float64) from " + tanh), run.err());
        assertTrue(run.err().contains("was passed, worst d0/dx rel err"), "the re-check says what it was: " + run.err());
        assertTrue(run.err().contains("(now edited: delta: 2)"), run.err()); // the new value, not the old one
        assertEquals(1, run.exit(), "the highest exit code of the script's lines: a mismatch");
        assertFalse(run.hasStackTrace());
    }

    @Test
    void theExamplesOfShellHelpRunAsWritten() {
        // issue 26, item 9: the footer named specs/activations/tanh.yaml and x.yaml, neither of which exists
        String[] footer = dev.gradcheck.cli.Main.commandLine(new java.io.PrintWriter(new java.io.StringWriter()),
                new java.io.PrintWriter(new java.io.StringWriter()), dev.gradcheck.backend.BackendFactory.CPU, null)
                .getSubcommands().get("shell").getCommandSpec().usageMessage().footer();
        List<String> examples = java.util.Arrays.stream(footer).map(String::strip)
                .filter(l -> l.contains("gradcheck shell")).toList();
        assertEquals(2, examples.size(), String.join("\n", footer));
        // the first: its arguments, then a check of what it loaded
        String[] args = examples.get(0).replaceFirst("^gradcheck shell ", "").split(" ");
        ShellRun loaded = ShellRun.inProcess("check\nexit\n", args);
        assertEquals(0, loaded.exit(), loaded.out() + loaded.err());
        assertTrue(rows(loaded.out()).get(0).startsWith("passed  softplus-rank2"), loaded.out());
        // the second: the script printf writes
        String script = examples.get(1).replaceFirst("^printf '", "").replaceFirst("' \\| gradcheck shell$", "")
                .replace("\\n", "\n");
        ShellRun piped = ShellRun.inProcess(script);
        assertEquals(0, piped.exit(), piped.out() + piped.err());
        assertEquals(2, rows(piped.out()).size(), piped.out());
        assertFalse(piped.err().contains(Shell.HINT), "a script gets no hint: " + piped.err());
    }

    @Test
    void helpWrapsAtTheTerminalsWidthAndKeepsWholeSentences() {
        // issue 26, item 9: help's lines ran past the terminal and cut "(e.g. ..." descriptions mid-sentence
        dev.gradcheck.cli.term.Terminal narrow = new dev.gradcheck.cli.term.Terminal(true, 70, false, () -> 0,
                java.util.Map.of());
        ShellRun run = ShellRun.onTerminal(narrow, "help\nhelp check\nexit\n", "--color", "never");
        assertEquals(0, run.exit(), run.err());
        List<String> tooLong = run.out().lines().filter(l -> l.length() > 70).toList();
        assertEquals(List.of(), tooLong);
        String help = run.out().replaceAll("\\s+", " "); // the wrapped lines joined again
        assertTrue(help.contains("set Set a spec key in memory (the file is left alone), e.g. set delta 1e-4"), help);
        assertTrue(help.contains("--only=GLOB"), "help COMMAND is picocli's usage, at the same width: " + help);
        assertEquals("A sentence (e.g. this one) ends here.", Shell.firstSentence("A sentence (e.g. this one) ends here."
                + " Not this."));
    }

    @Test
    void saveKeepsTheFilesCommentsAndLayoutAroundTheKeysEdited() throws IOException {
        // issue 26, item 9: save wrote the edited tree out whole, without the file's comments
        Path file = write("commented.yaml", """
                # a comment at the top
                name: tanh-small
                op: tanh          # the op

                # the inputs
                inputs:
                  x:
                    shape: [3, 4]    # rows, columns
                    init: {uniform: [-2, 2]}
                delta: 1.0e-6
                seed: 3
                # the end
                """);
        ShellRun run = ShellRun.inProcess("load " + file + "\nset delta 1e-4\nunset seed\nset mode fast\nsave\nexit\n");
        assertEquals(0, run.exit(), run.err());
        assertEquals("""
                # a comment at the top
                name: tanh-small
                op: tanh          # the op

                # the inputs
                inputs:
                  x:
                    shape: [3, 4]    # rows, columns
                    init: {uniform: [-2, 2]}
                delta: 1.0E-4
                mode: fast
                # the end
                """, Files.readString(file));
        ShellRun again = ShellRun.inProcess("load " + file + "\nshow\nexit\n");
        assertTrue(again.err().contains("loaded tanh-small"), "it loads back: " + again.err());
    }

    @Test
    void aKnownBugShowsAsAFailureOnceItsExpectationIsRemoved() {
        ShellRun run = ShellRun.inProcess("load specs/reductions/cumulative.yaml cumprod-axis0\ncheck\n"
                + "unset expect\nunset reason\ncheck\n");
        List<String> rows = rows(run.out());
        assertEquals(2, rows.size(), run.out());
        assertTrue(rows.get(0).startsWith("expected_fail  cumprod-axis0"), run.out());
        assertTrue(rows.get(1).startsWith("FAILED  cumprod-axis0"), run.out());
        assertTrue(run.out().contains("worst at out["), "the wrong backward is pinned on an element: " + run.out());
        assertEquals(1, run.exit(), "end of input without exit: the highest code, the mismatch");
    }

    @Test
    void anErrorNamesItsLineInOneLineAndTheScriptGoesOn() {
        ShellRun run = ShellRun.inProcess(String.join("\n", "frobnicate", "set delta 1", "load " + dir
                + "/nope.yaml", "load " + tanh, "set dleta 1", "mode fsat", "reset", "delta", "check", ""));
        String err = run.err();
        assertTrue(err.contains("line 1: unknown command 'frobnicate'; 'help' lists them"), err);
        assertTrue(err.contains("line 2: set: no spec loaded: 'load FILE' first"), err);
        assertTrue(err.contains("line 3: load: " + dir + "/nope.yaml:1:1: no such file or directory"), err);
        assertTrue(err.contains("line 5: set: unknown spec key 'dleta' (did you mean 'delta'?)"), err);
        assertTrue(err.contains(tanh + " (edited):") && err.contains("unknown mode 'fsat' (did you mean 'fast'?)"),
                "an edit that breaks the spec says why, in the edited text: " + err);
        assertTrue(err.contains("line 8: delta: Missing required parameter: 'STEP' (see 'help delta')"), err);
        assertTrue(rows(run.out()).get(0).startsWith("passed  tanh-small"), "line 9 still ran: " + run.out());
        assertEquals(2, run.exit(), "usage errors: the script exits 2 at its end");
        assertFalse(run.hasStackTrace(), err);
    }

    @Test
    void exitWithACodeEndsTheScriptThere() {
        ShellRun run = ShellRun.inProcess("frobnicate\nexit 0\nload " + tanh + "\ncheck\n");
        assertEquals(0, run.exit(), run.err());
        assertEquals("", run.out(), "nothing after exit runs");
        ShellRun clean = ShellRun.inProcess("load " + tanh + "\ncheck\nexit\n");
        assertEquals(0, clean.exit(), clean.err());
        assertEquals(3, ShellRun.inProcess("exit 3\n").exit());
    }

    @Test
    void theVerbsThatChangeInputsToleranceAttributesAndModeEditTheDocumentShowPrints() {
        Path softmax = write("softmax.yaml", "name: sm\nop: softmax\nattrs: {dimension: 1}\ninputs:\n  x: {shape: [2, 3]}\n");
        ShellRun run = ShellRun.inProcess(String.join("\n", "load " + softmax, "input x [[1, 2, 3], [3, 2, 1]]",
                "tolerance atol=1e-6 rtol=1e-4", "attr dimension 0", "mode fast", "delta 1e-5", "show", "check", ""));
        String out = run.out();
        assertTrue(out.contains("# " + softmax + ", edited: inputs.x.init: {values: [[1, 2, 3], [3, 2, 1]]};"
                + " tolerance: {atol: 1.0E-6, rtol: 1.0E-4}; attrs.dimension: 0; mode: fast; delta: 1.0E-5"), out);
        assertTrue(out.contains("attrs: {dimension: 0}\n"), out);
        assertTrue(out.contains("inputs:\n  x: {shape: [2, 3], init: {values: [[1, 2, 3], [3, 2, 1]]}}\n"), out);
        assertTrue(out.contains("mode: fast\n"), out);
        assertTrue(rows(out).get(0).startsWith("passed  sm"), out);
        assertEquals(0, run.exit(), run.err());
    }

    @Test
    void gradcheckCommandsRunAtThePromptAndCheckAloneIsTheLoadedSpec() {
        ShellRun run = ShellRun.inProcess("check " + tanh + " --format json\nvalidate " + tanh + "\ncheck\n");
        assertTrue(run.out().startsWith("{"), "check PATH is gradcheck's check, with its options: " + run.out());
        assertTrue(run.out().contains("\"status\" : \"passed\"") || run.out().contains("\"status\": \"passed\""),
                run.out());
        assertTrue(run.err().contains("check: no spec loaded: 'load FILE' first")
                || run.err().contains("rerun: no spec loaded"), run.err());
        assertEquals(2, run.exit());
    }

    @Test
    void helpListsTheShellsVerbsAndGradchecksCommands() {
        ShellRun run = ShellRun.inProcess("help\nhelp set\nhelp nothing\n");
        String out = run.out();
        for (String verb : List.of("load", "set", "unset", "delta", "tolerance", "mode", "attr", "input", "rerun",
                "show", "reset", "save", "explain", "jacobians", "exit", "check", "validate", "list-ops", "coverage")) {
            assertTrue(out.contains("\n  " + verb + " "), verb + " in:\n" + out);
        }
        assertTrue(out.contains("set delta 1e-4"), "help set shows its examples: " + out);
        assertTrue(run.err().contains("line 3: no command 'nothing'"), run.err());
    }

    @Test
    void saveWritesTheEditedSpecWhichLoadsBackAsEdited() throws IOException {
        Path copy = dir.resolve("copy.yaml");
        ShellRun run = ShellRun.inProcess("load " + tanh + "\ndelta 1e-5\nsave " + copy + "\nsave " + copy
                + "\nload " + copy + "\nshow\n");
        assertTrue(Files.readString(copy).contains("delta: 1.0E-5"), Files.readString(copy));
        assertTrue(run.err().contains("line 4: save: " + copy + " exists; 'save " + copy + " --force' replaces it"),
                run.err());
        assertTrue(run.out().contains("name: tanh-small\n") && run.out().contains("delta: 1.0E-5\n"), run.out());
    }

    @Test
    void explainDrawsTheLoadedSpecsBlocksAndJacobiansPrintsTheirNumbers() {
        ShellRun run = ShellRun.inProcess("load specs/reductions/cumulative.yaml cumprod-axis0\nexplain\njacobians\n"
                + "exit\n");
        String out = run.out();
        assertTrue(out.contains("cumprod-axis0  expected_fail"), out);
        assertTrue(out.contains("numerical") && out.contains("analytic") && out.contains("|analytic - numerical|"),
                out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("   ") && l.contains("X")), "the wrong backward's entries are marked: " + out);
        assertTrue(out.contains("entries mismatch"), "the count and pattern: " + out);
        assertTrue(out.matches("(?s).*numerical:\n +-?\\d\\.\\d{4,}e[-+]\\d\\d.*"), "numbers: " + out);
        assertTrue(out.contains("*"), "a mismatching number is starred: " + out);
        assertEquals(0, run.exit(), run.err());
        assertFalse(run.hasStackTrace(), run.err());
    }

    /** The table rows of every check printed (lines that start with a status). */
    private static List<String> rows(String out) {
        return out.lines().filter(l -> l.matches("(passed|FAILED|expected_fail|UNEXPECTED_PASS|ERROR|expected_error|INVALID|CRASHED|TIMEOUT|skipped) .*"))
                .toList();
    }

    private Path write(String name, String text) {
        try {
            return Files.writeString(dir.resolve(name), text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
