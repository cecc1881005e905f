package dev.gradcheck.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gradcheck.cli.Cli;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What bench/scale relies on: every spec it writes (its --list prints them all, as one YAML stream) is one that
 * gradcheck reads and ND4J runs, so a row of its table that says "invalid" means refused for memory, never a
 * misspelt attribute or a weight layout ND4J rejects.
 */
@Tag("slow") // runs python3, then ND4J's shape functions and one forward on each of the specs
class BenchScaleTest {

    @TempDir
    Path dir;

    @Test
    void everySpecBenchScaleWritesIsValidAtAnyMemoryLimit() throws IOException, InterruptedException {
        Process python;
        try {
            python = new ProcessBuilder("python3", Path.of("bench", "scale").toString(), "--list")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException noPython) {
            assumeTrue(false, "python3 is not installed: " + noPython.getMessage());
            return;
        }
        String listing = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, python.waitFor(), listing);
        long specs = Pattern.compile("^name: ", Pattern.MULTILINE).matcher(listing).results().count();
        assertTrue(specs >= 20, "bench/scale --list printed " + specs + " specs:\n" + listing);

        Path file = dir.resolve("scale.yaml");
        Files.writeString(file, listing);
        Cli r = Cli.run("validate", "--max-memory", "1TiB", file.toString());

        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue((r.out() + r.err()).contains(specs + " specs: " + specs + " valid, 0 invalid"), r.out() + r.err());
    }
}
