package dev.gradcheck.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What the shell's Tab offers beyond picocli's model (issue 26, item 6): a negatable option's negative, and spec
 * names for --only, --skip and --name from the spec paths on the line. (The terminal itself: ShellTerminalTest.)
 */
class ShellCompletionSourcesTest {

    @TempDir
    Path dir;

    @Test
    void aNegatableOptionCompletesToItsNegativeToo() {
        CommandLine check = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                BackendFactory.CPU, null).getSubcommands().get("check");
        assertEquals(List.of("--compress", "--no-compress"),
                ShellCompleter.optionNames(check, check.getCommandSpec().findOption("--compress")));
        assertEquals(List.of("--mode"), ShellCompleter.optionNames(check, check.getCommandSpec().findOption("--mode")));
    }

    @Test
    void specNamesComeFromTheSpecPathsOnTheLine() throws IOException {
        Path a = Files.writeString(dir.resolve("a.yaml"), "name: one\nop: tanh\ninputs: {x: {shape: [2]}}\n---\n"
                + "name: two\nop: tanh\ninputs: {x: {shape: [2]}}\n");
        Path sub = Files.createDirectories(dir.resolve("sub"));
        Files.writeString(sub.resolve("b.yaml"), "op: sigmoid\ninputs: {x: {shape: [2]}}\n"); // named after its file
        assertEquals(List.of("one", "two"), SpecNames.on(List.of("check", a.toString(), "--only", "")));
        List<String> both = SpecNames.on(List.of("check", dir.toString(), "--skip", ""));
        assertTrue(both.containsAll(List.of("one", "two", "b")) && both.size() == 3, both.toString());
    }
}
