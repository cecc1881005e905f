package dev.gradcheck.cli.term;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.ExternalTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/gradcheck in a pseudo-terminal, asserting on what the screen shows (issue 14, items 3-6): the status line on
 * a terminal and only there, colour only when the report goes to a terminal or is forced, no ND4J lines, a table
 * that fits the terminal's width.
 */
@Tag("slow") // starts the launcher's JVMs
class TerminalScreenTest {

    /** Specs from the suite whose checks make ND4J warn ("No fields found ...") and libnd4j print ("Labels ..."). */
    private static final String NOISY = "--only pad-constant --only softmax-cross-entropy-with-logits-rows"
            + " --only dot-product-attention-masked specs/shape specs/losses specs/attention";
    private static final Pattern STATUS = Pattern.compile("\r\u001b\\[K\\d+/3 checks, \\d+ failed, \\d+ s elapsed");
    private static final String ESC = "\u001b[";

    @TempDir
    Path dir;

    @BeforeEach // not @BeforeAll: surefire counts the tests of a class skipped there as neither run nor skipped
    void needsScript() {
        ExternalTool.needed(PseudoTerminal.available(), "util-linux's script, which runs the pseudo-terminal, is not"
                + " installed (apt-get install -y bsdutils)");
    }

    @Test
    void onATerminalRowsComeWithAStatusLineAndColourAndWithoutAnyNd4jLine() throws Exception {
        PseudoTerminal.Run run = PseudoTerminal.run(dir, 100, Map.of(), "bin/gradcheck check " + NOISY);
        assertEquals(0, run.exit(), run.raw());
        assertTrue(STATUS.matcher(run.raw()).find(), "a status line was drawn: " + run.raw());
        assertTrue(run.raw().contains(ESC + "32mpassed" + ESC + "0m"), "colour on a terminal: " + run.raw());
        List<String> screen = run.screen();
        for (String noise : new String[] {"WARN", "No fields found", "Labels plus eps", "NativeOpExecutioner"}) {
            assertTrue(screen.stream().noneMatch(l -> l.contains(noise)), noise + " on the screen: " + screen);
        }
        assertTrue(screen.get(0).startsWith("STATUS"), screen.toString());
        String firstSpec = screen.get(1).split("\\s+")[1];
        int drawnAtTwo = run.raw().lastIndexOf("2/3 checks");
        assertTrue(drawnAtTwo > 0 && run.raw().indexOf(firstSpec) < drawnAtTwo,
                "the first row is on the screen while later checks still run: " + run.raw());
        assertTrue(screen.get(screen.size() - 1).startsWith("3 checks: 2 passed, 0 failed, 1 expected failure"),
                "the status line is gone at the end: " + screen);
        assertTrue(screen.stream().noneMatch(l -> l.contains(" elapsed")), screen.toString());
    }

    @Test
    void aNarrowTerminalGetsATableThatFits() throws Exception {
        PseudoTerminal.Run run = PseudoTerminal.run(dir, 64, Map.of(), "bin/gradcheck check --in-process " + NOISY
                + " 2>/dev/null");
        List<String> screen = run.screen();
        assertTrue(screen.size() >= 5, screen.toString());
        screen.forEach(l -> assertTrue(l.length() <= 64, "wider than 64: " + l));
        assertTrue(screen.stream().anyMatch(l -> l.matches("passed +dot-product-attention-masked .*")),
                "a name of 28 characters shown whole: " + screen);
    }

    /**
     * Issue 26: on an 80-column terminal, a spec name of 37 characters keeps 28 of them (ABS ERR and DTYPE give
     * way first), and the run ends with the recap of what set the exit code: the name whole, file:line:col, the
     * reason, above the summary line.
     */
    @Test
    void atEightyColumnsNamesStayReadableAndTheRunEndsWithWhatSetTheExitCode() throws Exception {
        Path spec = Files.writeString(dir.resolve("xpass.yaml"), """
                name: tanh-expected-to-fail-but-passes-now
                op: tanh
                inputs:
                  x: {shape: [2, 3]}
                expect: fail
                reason: was wrong once
                """);
        PseudoTerminal.Run run = PseudoTerminal.run(dir, 80, Map.of(), "bin/gradcheck check --in-process '" + spec
                + "' --only pad-constant --only tanh-expected-to-fail-but-passes-now specs/shape 2>/dev/null");
        assertEquals(1, run.exit(), run.raw());
        List<String> screen = run.screen();
        screen.forEach(l -> assertTrue(l.length() <= 80, "wider than 80: " + l));
        assertTrue(screen.get(0).startsWith("STATUS") && !screen.get(0).contains("ABS ERR"), screen.toString());
        assertTrue(screen.stream().anyMatch(
                l -> l.matches("UNEXPECTED_PASS +tanh-expected-to-\\S{0,8}…\\S{0,8}-now .*")
                        && l.split(" +")[1].length() == 28),
                "28 characters of the name, its start and end: " + screen);
        int heading = screen.indexOf("unexpected results (exit code 1):");
        assertTrue(heading > 0, screen.toString());
        assertTrue(screen.get(heading + 1).matches("UNEXPECTED_PASS +tanh-expected-to-fail-but-passes-now( .*)?"),
                "the whole name: " + screen);
        assertTrue(screen.get(heading + 1).contains(spec + ":1:1") || screen.get(heading + 2).startsWith("  " + spec
                + ":1:1: expected fail (was wrong"), "file:line:col, reason: " + screen);
        assertTrue(screen.get(screen.size() - 1).startsWith("2 checks: 1 passed, 0 failed, 1 unexpected pass"),
                screen.toString());
    }

    @Test
    void reportToAFileHasNoColourWhileStderrStillShowsTheStatusLine() throws Exception {
        Path out = dir.resolve("report.txt");
        PseudoTerminal.Run run = PseudoTerminal.run(dir, 100, Map.of(), "bin/gradcheck check --in-process " + NOISY
                + " > " + out);
        String report = Files.readString(out);
        assertFalse(report.contains(ESC), "no escape codes in a file: " + report);
        assertTrue(report.startsWith("STATUS") && report.contains("3 checks: 2 passed"), report);
        assertTrue(report.lines().anyMatch(l -> l.length() > 100), "a file gets the full width: " + report);
        assertTrue(STATUS.matcher(run.raw()).find(), "stderr is still a terminal: " + run.raw());

        PseudoTerminal.Run forced = PseudoTerminal.run(dir, 100, Map.of("FORCE_COLOR", "1"),
                "bin/gradcheck check --in-process " + NOISY + " | cat > " + out);
        assertTrue(Files.readString(out).contains(ESC + "32mpassed"), "FORCE_COLOR colours a pipe");
        assertTrue(STATUS.matcher(forced.raw()).find(), forced.raw());
    }

    @Test
    void stderrElsewhereMeansNoStatusLineAndNoColourWithNoColor() throws Exception {
        Path err = dir.resolve("err.txt");
        PseudoTerminal.Run run = PseudoTerminal.run(dir, 100, Map.of("NO_COLOR", "1"),
                "bin/gradcheck check --in-process " + NOISY + " 2> " + err);
        assertFalse(run.raw().contains(ESC), "NO_COLOR, and no status line drawn: " + run.raw());
        assertFalse(Files.readString(err).contains(" elapsed"), "nothing extra when stderr is not a terminal");
        assertTrue(run.screen().get(run.screen().size() - 1).startsWith("3 checks:"), run.screen().toString());
    }
}
