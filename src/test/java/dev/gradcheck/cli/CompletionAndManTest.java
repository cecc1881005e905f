package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.build.ManPages;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `gradcheck completion bash|zsh` (picocli's AutoComplete) and the man page sources (picocli's generator). */
class CompletionAndManTest {

    @TempDir
    Path dir;

    @Test
    void theBashScriptSourcesAndCompletesCommandsOptionsAndValues() throws Exception {
        Cli r = Cli.run("completion", "bash");
        assertEquals(0, r.exit(), r.err());
        Path script = dir.resolve("gradcheck-completion.bash");
        Files.writeString(script, r.out());
        // what bash does on TAB: fill COMP_WORDS and COMP_CWORD, call the function `complete -p` names
        String driver = "source '" + script + "' || exit 9\n"
                + "fn=$(complete -p gradcheck | sed -E 's/.*-F ([^ ]+).*/\\1/')\n"
                + "t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=\"$*\";"
                + " COMP_POINT=${#COMP_LINE}; COMPREPLY=(); $fn 2>/dev/null; echo \"${COMPREPLY[*]}\"; }\n"
                + "t gradcheck ch\n"
                + "t gradcheck check --fail-\n"
                + "t gradcheck check --format j\n"
                + "t gradcheck check --backend c\n"
                + "t gradcheck completion ''\n"
                + "t gradcheck check --dump-format c\n"
                + "t gradcheck check --format h\n"
                + "t gradcheck sh\n"
                + "t gradcheck ex\n"
                + "t gradcheck explain --col\n"
                + "t gradcheck shell --color n\n";
        List<String> replies = bash(driver);
        assertEquals(List.of("check", "--fail-fast", "json junit", "cpu cuda", "bash zsh", "csv", "html", "shell",
                "explain", "--color", "never"), replies);
        // picocli names each option's value list after its parameter label: two alike, one list overwrites the other
        for (String function : r.out().split("\n\\}\n")) {
            List<String> lists = function.lines().map(String::strip)
                    .filter(l -> l.matches("local \\w+_option_args=.*")).map(l -> l.substring(6, l.indexOf('='))).toList();
            assertEquals(lists.stream().distinct().count(), lists.size(), "value lists named twice: " + lists);
        }
    }

    @Test
    void theBashScriptCompletesNegativesOpNamesAndSpecNames() throws Exception {
        // issue 26, item 6: --no-compress, op names after list-ops and new, spec names after --only, --skip and
        // --name, from the spec paths on the line or, with none, the project file's paths:
        Path script = dir.resolve("gradcheck-completion.bash");
        Files.writeString(script, Cli.run("completion", "bash").out());
        Path project = Files.createDirectories(dir.resolve("project"));
        Files.writeString(project.resolve("gradcheck.yaml"), "paths: [specs]\n");
        Path specs = Files.createDirectories(project.resolve("specs"));
        Files.writeString(specs.resolve("a.yaml"), "name: tanh-small\nop: tanh\ninputs: {x: {shape: [2]}}\n---\n"
                + "name: tanh-large\nop: tanh\ninputs: {x: {shape: [20]}}\n");
        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve("b.yaml"), "name: sigmoid-only\nop: sigmoid\ninputs: {x: {shape: [2]}}\n");
        // the script runs `gradcheck check --collect-only`: here, this build's
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path launcher = bin.resolve("gradcheck");
        Files.writeString(launcher, "#!/bin/sh\nexec '" + ProcessHandle.current().info().command().orElse("java")
                + "' -cp '" + System.getProperty("java.class.path") + "' " + Main.class.getName() + " \"$@\"\n");
        assertTrue(launcher.toFile().setExecutable(true));
        String driver = "export PATH='" + bin + "':$PATH\nsource '" + script + "' || exit 9\n"
                + "fn=$(complete -p gradcheck | sed -E 's/.*-F ([^ ]+).*/\\1/')\n"
                + "t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=\"$*\";"
                + " COMP_POINT=${#COMP_LINE}; COMPREPLY=(); $fn 2>/dev/null; echo \"${COMPREPLY[*]}\"; }\n"
                + "cd '" + project + "'\n"
                + "t gradcheck check --no-com\n"
                + "t gradcheck list-ops matm\n"
                + "t gradcheck new cumpr\n"
                + "t gradcheck check --only tanh-\n"
                + "t gradcheck check '" + other + "' --skip s\n"
                + "t gradcheck explain '" + other.resolve("b.yaml") + "' --name ''\n"
                + "t gradcheck check --stencil fi\n"; // the names a spec writes, not the enum's FIVE_POINT
        assertEquals(List.of("--no-compress", "matmul", "cumprod", "tanh-small tanh-large", "sigmoid-only",
                "sigmoid-only", "five-point"), bash(driver));
    }

    @Test
    void zshGetsTheSameScriptWhichRegistersItselfThroughBashcompinit() {
        Cli zsh = Cli.run("completion", "zsh");
        assertEquals(0, zsh.exit());
        assertEquals(Cli.run("completion", "bash").out(), zsh.out());
        assertTrue(zsh.out().contains("ZSH_VERSION") && zsh.out().contains("bashcompinit"), "zsh branch");
        Cli fish = Cli.run("completion", "fsh");
        assertEquals(2, fish.exit());
        assertTrue(fish.err().contains("unknown shell 'fsh'") && fish.err().contains("valid: bash, zsh"), fish.err());
    }

    @Test
    void manPageSourcesCoverEveryCommandWithItsOptionsAndExitCodes() throws IOException {
        assertEquals(0, ManPages.write(dir.toFile()));
        for (String command : new String[] {"gradcheck", "gradcheck-check", "gradcheck-validate",
            "gradcheck-list-ops", "gradcheck-coverage", "gradcheck-bench", "gradcheck-completion",
            "gradcheck-shell", "gradcheck-explain"}) {
            assertTrue(Files.isRegularFile(dir.resolve(command + ".adoc")), command);
        }
        String check = Files.readString(dir.resolve("gradcheck-check.adoc"));
        assertTrue(check.contains(":doctype: manpage"), "Asciidoctor's manpage backend reads it");
        for (String s : new String[] {"--color", "--verbose", "--max-memory", "Exit codes", "130"}) {
            assertTrue(check.contains(s), s);
        }
        assertFalse(check.contains("${"), "every help variable resolved");
        String validate = Files.readString(dir.resolve("gradcheck-validate.adoc"));
        assertFalse(validate.contains("130"), "validate's page lists validate's exit codes");
    }

    private List<String> bash(String script) throws IOException, InterruptedException {
        Path file = dir.resolve("driver.sh");
        Files.writeString(file, script);
        Process p = new ProcessBuilder("bash", file.toString()).redirectError(new File("/dev/null")).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "bash finished");
        assertEquals(0, p.exitValue(), out);
        return out.lines().toList();
    }
}
