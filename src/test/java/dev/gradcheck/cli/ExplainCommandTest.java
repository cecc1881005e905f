package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.cli.shell.ShellRun;
import dev.gradcheck.cli.shell.ShellScriptTest;
import dev.gradcheck.cli.term.HeatMapScreen;
import dev.gradcheck.cli.term.Terminal;
import dev.gradcheck.report.BlockPicture;
import dev.gradcheck.report.BlockPictureAccess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gradcheck explain} in this JVM: the pictures of a right and of a wrong backward, as text and as a page. */
class ExplainCommandTest {

    @TempDir
    Path dir;

    Path tanh;

    @BeforeEach
    void spec() throws IOException {
        tanh = Files.writeString(dir.resolve("tanh.yaml"), ShellScriptTest.TANH_SMALL);
    }

    @Test
    void aRightBackwardDrawsAMatchingPairAndNoMismatch() {
        Cli run = Cli.run("explain", tanh.toString(), "--in-process");
        assertEquals(0, run.exit(), run.err());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.get(0).startsWith("tanh-small  passed"), run.out());
        assertTrue(run.out().contains("rows: 12 entries of out[3, 4], columns: 12 entries of x[3, 4]"), run.out());
        assertTrue(lines.stream().filter(l -> l.startsWith("   ")).noneMatch(l -> l.contains("X")),
                "nothing mismatches: " + run.out());
        // tanh is elementwise: the diagonal alone is nonzero, on both sides
        String first = lines.stream().filter(l -> l.startsWith("   ") && l.contains(" . ")).findFirst().orElseThrow();
        assertTrue(first.strip().matches("\\d( \\.){11}\\s+\\d( \\.){11}\\s+.*"), first);
    }

    @Test
    void aWrongBackwardIsMarkedWhereItIsWrong() {
        Cli run = Cli.run("explain", "specs/reductions/cumulative.yaml", "--name", "cumprod-axis0", "--in-process",
                "--no-color");
        assertEquals(0, run.exit(), "a known bug, expected to fail: " + run.err());
        assertTrue(run.out().contains("entries mismatch"), run.out());
        assertTrue(run.out().lines().anyMatch(l -> l.matches(".*X\\d.*")), "mismatches marked X: " + run.out());
        assertFalse(run.out().contains("\u001b["), "no escape sequences when colour is off");
    }

    @Test
    void htmlWritesAPageWithTheThreeMapsOfEachBlock() throws IOException {
        Path page = dir.resolve("tanh.html");
        Cli run = Cli.run("explain", tanh.toString(), "--in-process", "--html", page.toString());
        assertEquals(0, run.exit(), run.err());
        String html = Files.readString(page);
        assertEquals(3, html.split("<svg ", -1).length - 1, "one block, three maps");
        assertTrue(run.err().contains("wrote " + page), run.err());
    }

    @Test
    void checkFormatHtmlDrawsTheFailingBlocksOnly() throws IOException {
        Path page = dir.resolve("run.html");
        Cli run = Cli.run("check", tanh.toString(), "specs/reductions/cumulative.yaml", "--format", "html",
                "--in-process", "--output", page.toString());
        String html = Files.readString(page);
        assertTrue(html.contains(">tanh-small</td>") && html.contains(">cumprod-axis0</td>"), "every check's row");
        int maps = html.split("<svg ", -1).length - 1;
        assertTrue(maps >= 3 && maps % 3 == 0, maps + " maps");
        assertTrue(html.contains("cumprod-axis0</a> d0/dx"), "the wrong backward's block is drawn");
        assertFalse(html.contains("tanh-small</a>"), "a passing block is not");
        assertEquals(0, run.exit(), run.err());
    }

    @Test
    void anUnknownNameListsTheFilesSpecs() {
        Cli run = Cli.run("explain", tanh.toString(), "--name", "tanh-large", "--in-process");
        assertEquals(2, run.exit());
        assertTrue(run.err().contains("no spec named 'tanh-large' in " + tanh + "; it has: tanh-small"), run.err());
    }

    @Test
    void inColourEachCellIsABackgroundOfTheTerminalsPalette() {
        BlockPicture p = BlockPicture.of(BlockPictureAccess.wrongBlock());
        List<String> lines = new HeatMapScreen(true, 200).lines(p);
        assertTrue(lines.get(1).contains("\u001b[") && lines.get(1).contains("48;5;"), lines.get(1));
        assertTrue(String.join("\n", lines).contains("X "), "the mismatch marked in the difference map");
        List<String> narrow = new HeatMapScreen(false, 30).lines(p);
        assertEquals("numerical", narrow.get(0), "too narrow for side by side: one map under another");
    }

    /** A colour terminal {@code columns} wide, with {@code env} on top of TERM=xterm-256color. */
    private static Terminal colourTerminal(int columns, String... env) {
        Map<String, String> vars = new HashMap<>(Map.of("TERM", "xterm-256color"));
        for (int i = 0; i < env.length; i += 2) {
            vars.put(env[i], env[i + 1]);
        }
        return new Terminal(true, columns, false, () -> 0, vars);
    }

    private static boolean sideBySide(String out) {
        return out.lines().map(String::strip).anyMatch(l -> l.startsWith("numerical ") && l.contains("analytic"));
    }

    /** explain colours as check does: --color, then NO_COLOR, then FORCE_COLOR, then whether stdout is a terminal. */
    @Test
    void explainColoursAsColorAndNoColorSay() {
        String esc = "\u001b[";
        Cli auto = Cli.onTerminal(colourTerminal(200), "explain", tanh.toString(), "--in-process");
        assertEquals(0, auto.exit(), auto.err());
        assertTrue(auto.out().contains(esc), "a colour terminal gets colour: " + auto.out());
        Cli never = Cli.onTerminal(colourTerminal(200), "explain", tanh.toString(), "--in-process", "--color",
                "never");
        assertFalse(never.out().contains(esc), never.out());
        assertTrue(never.out().contains("(digits: magnitude"), "drawn with characters instead: " + never.out());
        Cli noColor = Cli.onTerminal(colourTerminal(200, "NO_COLOR", "1"), "explain", tanh.toString(),
                "--in-process");
        assertFalse(noColor.out().contains(esc), "NO_COLOR: " + noColor.out());
        Cli always = Cli.onTerminal(colourTerminal(200, "NO_COLOR", "1"), "explain", tanh.toString(),
                "--in-process", "--color", "always");
        assertTrue(always.out().contains(esc), "--color always wins over NO_COLOR");
        Cli piped = Cli.onTerminal(new Terminal(false, 0, false, () -> 0, Map.of("TERM", "xterm",
                "FORCE_COLOR", "1")), "explain", tanh.toString(), "--in-process");
        assertTrue(piped.out().contains(esc), "FORCE_COLOR colours a pipe");
        assertEquals(2, Cli.run("explain", tanh.toString(), "--color", "sometimes").exit());
    }

    /** The maps sit side by side when the terminal is wide enough, else one under another; COLUMNS wins. */
    @Test
    void explainFitsTheTerminalsWidth() {
        Cli wide = Cli.onTerminal(colourTerminal(200), "explain", tanh.toString(), "--in-process", "--no-color");
        assertTrue(sideBySide(wide.out()), wide.out());
        Cli narrow = Cli.onTerminal(colourTerminal(60), "explain", tanh.toString(), "--in-process", "--no-color");
        assertFalse(sideBySide(narrow.out()), narrow.out());
        assertTrue(narrow.out().lines().anyMatch(l -> l.strip().equals("numerical")), narrow.out());
        assertTrue(narrow.out().lines().anyMatch(l -> l.startsWith("   ")), "map rows to measure: " + narrow.out());
        assertTrue(narrow.out().lines().filter(l -> l.startsWith("   ")).allMatch(l -> l.length() <= 60),
                "no map wider than the terminal");
        Cli columns = Cli.onTerminal(colourTerminal(200, "COLUMNS", "60"), "explain", tanh.toString(),
                "--in-process", "--no-color");
        assertFalse(sideBySide(columns.out()), "COLUMNS=60 beats a 200-column terminal: " + columns.out());
        Cli piped = Cli.onTerminal(Terminal.none(), "explain", tanh.toString(), "--in-process");
        assertTrue(sideBySide(piped.out()), "a pipe gets 120 columns: " + piped.out());
    }

    /** The shell's explain verb draws on the same terminal: its width and its colour rules. */
    @Test
    void theShellsExplainFollowsTheTerminalToo() {
        String script = "load " + tanh + "\nexplain\nexit\n";
        ShellRun narrow = ShellRun.onTerminal(colourTerminal(60), script, "--color", "never");
        assertEquals(0, narrow.exit(), narrow.err());
        assertFalse(sideBySide(narrow.out()), narrow.out());
        assertFalse(narrow.out().contains("\u001b["), narrow.out());
        ShellRun wide = ShellRun.onTerminal(colourTerminal(200), script);
        assertTrue(sideBySide(wide.out()), wide.out());
        assertTrue(wide.out().contains("\u001b["), "a colour terminal: " + wide.out());
        ShellRun noColor = ShellRun.onTerminal(colourTerminal(200, "NO_COLOR", "x"), script);
        assertFalse(noColor.out().contains("\u001b["), "NO_COLOR: " + noColor.out());
    }
}
