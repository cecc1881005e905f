package dev.gradcheck.cli.term;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.cli.CheckCommand;
import dev.gradcheck.cli.options.ColorMode;
import dev.gradcheck.cli.options.Workspace;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Colour follows the report's destination; --color, then NO_COLOR, then FORCE_COLOR decide before that. */
class ColorModeTest {

    private static final Map<String, String> XTERM = Map.of("TERM", "xterm-256color");

    @Test
    void autoColoursOnlyATerminalThatIsNotDumb() {
        assertTrue(ColorMode.AUTO.colors(true, XTERM));
        assertFalse(ColorMode.AUTO.colors(false, XTERM), "a pipe or a file");
        assertFalse(ColorMode.AUTO.colors(true, Map.of("TERM", "dumb")));
        assertFalse(ColorMode.AUTO.colors(true, Map.of()), "no TERM at all");
    }

    @Test
    void theEnvironmentDecidesBeforeTheTerminal() {
        assertFalse(ColorMode.AUTO.colors(true, env("NO_COLOR", "1")));
        assertTrue(ColorMode.AUTO.colors(true, env("NO_COLOR", "")), "an empty NO_COLOR is not set");
        assertTrue(ColorMode.AUTO.colors(false, env("FORCE_COLOR", "1")), "CI logs that render ANSI");
        assertTrue(ColorMode.AUTO.colors(false, env("FORCE_COLOR", "true")));
        assertFalse(ColorMode.AUTO.colors(true, env("FORCE_COLOR", "0")));
        assertFalse(ColorMode.AUTO.colors(true, env("FORCE_COLOR", "false")));
        assertFalse(ColorMode.AUTO.colors(false, Map.of("NO_COLOR", "1", "FORCE_COLOR", "1", "TERM", "xterm")),
                "a user's NO_COLOR beats a CI's FORCE_COLOR");
    }

    @Test
    void theCommandLineWinsOverEverything() {
        assertTrue(ColorMode.ALWAYS.colors(false, env("NO_COLOR", "1")));
        assertFalse(ColorMode.NEVER.colors(true, env("FORCE_COLOR", "1")));
    }

    @Test
    void noColorIsNeverAndTheLastOfTheTwoOptionsWins() {
        CheckCommand check = new CheckCommand(null, null, Workspace.current(), Terminal.none());
        picocli.CommandLine cl = new picocli.CommandLine(check);
        cl.parseArgs("--color", "always", "--no-color", "x");
        assertEquals(ColorMode.NEVER, check.color.mode);
        cl.parseArgs("--no-color", "--color=always", "x");
        assertEquals(ColorMode.ALWAYS, check.color.mode);
    }

    @Test
    void noColorAloneIsNeverAndNeitherIsAuto() {
        CheckCommand check = new CheckCommand(null, null, Workspace.current(), Terminal.none());
        picocli.CommandLine cl = new picocli.CommandLine(check);
        cl.parseArgs("--no-color", "x");
        assertEquals(ColorMode.NEVER, check.color.mode);
        cl.parseArgs("x");
        assertEquals(ColorMode.AUTO, check.color.mode, "a later parse without either starts from the default again");
    }

    private static Map<String, String> env(String key, String value) {
        return Map.of(key, value, "TERM", "xterm");
    }
}
