package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.cli.options.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Selection as people type it (issue 35 item 4): {@code -k EXPR} as pytest's, on the command line and in the project
 * file (the shell runs the same command: ShellKeywordTest), with did-you-mean when it selects nothing; list-ops
 * suggests the op a near miss meant. --collect-only lists what a run would check, so no check runs here.
 */
class KeywordSelectionTest {

    @TempDir
    Path root;

    @BeforeEach
    void specs() throws IOException {
        Path dir = Files.createDirectories(root.resolve("specs/reductions"));
        StringBuilder yaml = new StringBuilder();
        for (String name : List.of("cumsum-axis0", "cumprod-axis0", "cumprod-axis1")) {
            yaml.append(yaml.isEmpty() ? "" : "---\n").append("name: ").append(name).append("\nop: ")
                    .append(name, 0, name.indexOf('-')).append("\ninputs:\n  x: {shape: [3]}\n");
        }
        Files.writeString(dir.resolve("cumulative.yaml"), yaml);
        Files.writeString(root.resolve("specs/tanh.yaml"), "name: tanh-rows\nop: tanh\ninputs:\n  x: {shape: [2]}\n");
    }

    static List<String> listed(String collectOnly) {
        return Arrays.stream(collectOnly.split("\n")).skip(1).filter(l -> !l.isBlank() && !l.contains(" selected"))
                .map(l -> l.split("\\s+")[0]).toList();
    }

    @Test
    void kSelectsBySubstringsOfNameOpOrFile() {
        String specs = root.resolve("specs").toString();
        Cli r = Cli.run("check", specs, "--collect-only", "-k", "cumprod and not axis0");
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("cumprod-axis1"), listed(r.out()), r.out());
        Cli byFile = Cli.run("check", specs, "--collect-only", "--keyword", "reductions or TANH");
        assertEquals(List.of("cumsum-axis0", "cumprod-axis0", "cumprod-axis1", "tanh-rows"), listed(byFile.out()),
                byFile.out());
    }

    @Test
    void nothingSelectedSuggestsWhatWasMeant() {
        String specs = root.resolve("specs").toString();
        Cli typo = Cli.run("check", specs, "-k", "cumprd");
        assertEquals(2, typo.exit());
        assertTrue(typo.err().contains("no spec's name, op or file holds 'cumprd' (did you mean 'cumprod'?)"),
                typo.err());
        Cli whole = Cli.run("check", specs, "--only", "cumprod");
        assertEquals(2, whole.exit());
        assertTrue(whole.err().contains("'cumprod' is a glob over whole names and paths: '*cumprod*' takes the 2"),
                whole.err());
        Cli syntax = Cli.run("check", specs, "-k", "cumprod and");
        assertEquals(2, syntax.exit());
        assertTrue(syntax.err().contains("-k: column 12: expected a keyword or '(' after 'and'"), syntax.err());
    }

    @Test
    void theProjectFileTakesKeyword() throws IOException {
        Files.writeString(root.resolve("gradcheck.yaml"), "paths: [specs]\ncheck:\n  keyword: cumsum or tanh\n");
        Cli r = Cli.runIn(Workspace.at(root, Map.of()), "check", "--collect-only");
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("cumsum-axis0", "tanh-rows"), listed(r.out()), r.out());
    }

    @Test
    void listOpsSuggestsTheOpANearMissMeant() {
        Cli r = Cli.run("list-ops", "layernorm");
        assertEquals(0, r.exit());
        assertTrue(r.err().contains("no op matches 'layernorm' (did you mean 'layer_norm'?)"), r.err());
        Cli part = Cli.run("list-ops", "norm");
        assertTrue(part.err().matches("(?s).*'\\*norm\\*' lists the \\d+ whose name holds 'norm'.*"), part.err());
        assertFalse(Cli.run("list-ops", "tanh").err().contains("no op matches"));
    }
}
