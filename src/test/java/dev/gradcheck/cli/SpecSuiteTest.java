package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shipped spec suite (specs/, the audit of ND4J) runs in CI through this test: every spec must end as it
 * expects (a known ND4J bug that starts passing fails here as UNEXPECTED_PASS), and it must keep covering at least 100 ops.
 */
@Tag("slow") // the whole spec suite
class SpecSuiteTest {

    private static final Path SPECS = Path.of("specs");

    @Test
    void everySpecEndsAsExpected() {
        assertTrue(Files.isDirectory(SPECS), "run from the project root");
        Cli r = Cli.run("check", SPECS.toString());
        String summary = r.out().lines().filter(l -> l.matches("\\d+ checks?: .*")).findFirst().orElse(r.out());
        assertEquals(0, r.exit(), summary + "\n" + r.out());
        assertTrue(summary.contains(" 0 failed"), summary);
    }

    @Test
    void theSuiteCoversAtLeastAHundredOpsWithABackward() throws IOException {
        JsonNode root = new ObjectMapper().readTree(Cli.run("coverage", SPECS.toString(), "--json").out());
        assertTrue(root.get("covered").asInt() >= 100, "covered: " + root.get("covered"));
    }
}
