package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Option values, usage errors and the help each command gives (issue 14, item 8). */
class UsageTest {

    @ParameterizedTest
    @CsvSource({
        "--mode, fsat, fast",
        "--backend, cpuu, cpu",
        "--format, jsno, json",
        "--format, htlm, html",
        "--stencil, fivepoint, five-point",
        "--color, allways, always",
    })
    void everyEnumOptionSuggestsTheCloseValue(String option, String typo, String meant) {
        Cli r = Cli.run("check", "specs", option, typo);
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("did you mean '" + meant + "'?"), r.err());
    }

    /** Other commands' value options too; nothing runs (bench would take minutes). */
    @ParameterizedTest
    @CsvSource({
        "merge, --format, jsno, json",
        "merge, --color, nevr, never",
        "merge, --format, htlm, html",
        "explain, --color, nevr, never",
        "shell, --color, allways, always",
        "bench, --executor, samedif, samediff",
        "completion, , bsh, bash",
    })
    void otherCommandsSuggestTheCloseValueToo(String command, String option, String typo, String meant) {
        Cli r = option == null ? Cli.run(command, typo) : Cli.run(command, option, typo, "x.json");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("did you mean '" + meant + "'?"), r.err());
        assertTrue(r.err().contains("See 'gradcheck " + command + " --help'."), r.err());
    }

    @Test
    void aUsageErrorSaysWhatAndWhereTheHelpIsNotTheWholeUsage() {
        Cli r = Cli.run("check", "specs", "--mode", "fsat");
        List<String> lines = r.err().lines().toList();
        assertEquals(2, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith("gradcheck: Invalid value for option '--mode'"), r.err());
        assertEquals("See 'gradcheck check --help'.", lines.get(1));
        assertFalse(r.err().contains("Usage:"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void aMistypedOptionOrCommandGetsSuggestions() {
        Cli option = Cli.run("check", "specs", "--fail-fats");
        assertEquals(2, option.exit());
        assertTrue(option.err().contains("--fail-fast"), option.err());
        assertTrue(option.err().contains("See 'gradcheck check --help'."), option.err());
        Cli command = Cli.run("chekc", "specs");
        assertEquals(2, command.exit());
        assertTrue(command.err().contains("check"), command.err());
        assertTrue(command.err().contains("See 'gradcheck --help'."), command.err());
        assertFalse(command.err().contains("Usage:"), command.err());
        Cli none = Cli.run();
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("Commands: check, explain, validate"), none.err());
    }

    @Test
    void eachCommandsHelpListsOnlyItsOwnExitCodes() {
        String check = Cli.run("check", "--help").out();
        for (String code : new String[] {"0", "1", "2", "3", "130"}) {
            assertTrue(exitCodes(check).contains(code), code + " in " + check);
        }
        String validate = Cli.run("validate", "--help").out();
        assertEquals(List.of("0", "2"), exitCodes(validate), validate);
        assertFalse(validate.contains("mismatch") || validate.contains("Ctrl-C"), validate);
        String merge = Cli.run("merge", "--help").out();
        assertEquals(List.of("0", "1", "2", "3", "129", "130", "143"), exitCodes(merge), merge);
        assertTrue(merge.contains("a shard's run was interrupted (Ctrl-C, SIGINT)") && !merge.contains("every spec is valid"), merge);
        String explain = Cli.run("explain", "--help").out();
        assertEquals(List.of("0", "1", "2", "3", "130"), exitCodes(explain), explain);
        String shell = Cli.run("shell", "--help").out();
        assertEquals(List.of("0", "1", "2", "3"), exitCodes(shell), shell);
        assertTrue(shell.contains("'exit CODE' ends the shell with CODE"), shell);
        assertFalse(shell.contains("%n") || shell.contains("%\\"), "the footer formats cleanly: " + shell);
        for (String command : new String[] {"list-ops", "coverage", "bench", "completion"}) {
            String help = Cli.run(command, "--help").out();
            assertEquals(List.of("0", "2"), exitCodes(help), help);
        }
    }

    @Test
    void exitCodeMeaningsLineUp() {
        String check = Cli.run("check", "--help").out();
        String zero = check.lines().filter(l -> l.matches("\\s+0\\s+every check.*")).findFirst().orElseThrow();
        String interrupted = check.lines().filter(l -> l.matches("\\s+130\\s+interrupted.*")).findFirst().orElseThrow();
        assertEquals(zero.indexOf("every"), interrupted.indexOf("interrupted"), check);
    }

    @Test
    void helpNamesTheDocsByAPathThatWorksFromAnywhere() {
        String help = Cli.run("--help").out();
        Matcher m = Pattern.compile("Spec format:\\s+(\\S+spec-format\\.md)").matcher(help);
        assertTrue(m.find(), help);
        Path docs = Path.of(m.group(1));
        assertTrue(docs.isAbsolute() && Files.isRegularFile(docs), docs.toString());
    }

    /** The codes listed under "Exit codes", in order. */
    private static List<String> exitCodes(String help) {
        String section = help.substring(help.indexOf("Exit codes"));
        int end = section.indexOf("\n\n");
        return section.substring(0, end < 0 ? section.length() : end).lines().skip(1)
                .map(String::strip).filter(l -> l.matches("\\d+\\s.*")).map(l -> l.split("\\s+")[0]).toList();
    }
}
