package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.cli.options.ByteSize;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --max-memory refuses oversized specs before allocating them, with their position. */
class LimitsTest {

    private static final String SPECS = """
            name: huge-input
            op: tanh
            inputs: {x: {shape: [100000, 100000]}}
            ---
            name: big-jacobian
            op: softmax
            attrs: {dimension: 0}
            inputs: {x: {shape: [2000]}}
            ---
            name: small
            op: tanh
            inputs: {x: {shape: [3]}}
            """;

    @TempDir
    Path dir;

    @Test
    void specsOverTheLimitAreRefusedWithTheirPositionAndTheRestRuns() throws IOException {
        Path file = dir.resolve("sizes.yaml");
        Files.writeString(file, SPECS);
        Cli r = Cli.run("check", file.toString(), "--max-memory", "10m", "--format", "json");
        assertEquals(2, r.exit(), r.err());
        JsonNode checks = new ObjectMapper().readTree(r.out()).get("checks");
        assertEquals("invalid", checks.get(0).get("status").asText());
        assertEquals(file + ":1:1: refused: its inputs would need 223.5 GiB, over the memory limit of 10.0 MiB"
                + " (--max-memory; a smaller shape or check: fewer inputs fits)", checks.get(0).get("message").asText());
        assertEquals("invalid", checks.get(1).get("status").asText());
        // 2000 x 2000 entries, numerical and analytic, a double each and the copy judging compares: 122 MiB
        // (HeldBytes.DENSE_PER_SIDE); every output depends on every input, so compressed
        // the pattern is all of it too (a tanh compresses to its diagonal, and passes in 10 MiB), a double an entry
        // where entries are judged as they come, and those held compactly where they would take more than a quarter
        // of the budget (a float each, and room for a 32nd of them exactly): the refusal says what both sides
        // compressed would need as well as the dense blocks
        assertTrue(checks.get(1).get("message").asText().startsWith(file + ":5:1: refused: its Jacobians"
                + " (output elements x input elements, numerical and analytic), needed because both sides compressed"
                + " could not settle it (over the memory budget: its pattern's 4,000,000 entries (a float each and"
                + " room for 1/32 of them exact, 100.0% of the dense blocks) and one thread's evaluations"
                + " would need 17.8 MiB) would need 122.1 MiB"), checks.get(1).get("message").asText());
        assertEquals("passed", checks.get(2).get("status").asText());
        assertNull(System.getProperty("gradcheck.max-memory"), "the budget is passed in, never set JVM-wide");
    }

    /** The refusal names the least budget that lets a path run, and under it the check runs and passes. */
    @Test
    void theBudgetARefusalNamesLetsTheCheckRun() throws IOException {
        Path file = dir.resolve("sizes.yaml");
        Files.writeString(file, SPECS);
        Cli refused = Cli.run("check", file.toString(), "--only", "big-jacobian", "--max-memory", "10m", "--format",
                "json", "--in-process");
        String message = new ObjectMapper().readTree(refused.out()).get("checks").get(0).get("message").asText();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("--max-memory (\\S+) would let both sides"
                + " compressed run, in a heap of twice that \\(GRADCHECK_OPTS=-Xmx36m\\)").matcher(message);
        assertTrue(m.find(), message);
        assertEquals("17.8m", m.group(1), "17.7x MiB, rounded up to a tenth: " + message);
        Cli fits = Cli.run("check", file.toString(), "--only", "big-jacobian", "--max-memory", m.group(1),
                "--format", "json", "--in-process");
        assertEquals(0, fits.exit(), fits.out());
        assertEquals("passed", new ObjectMapper().readTree(fits.out()).get("checks").get(0).get("status").asText());
        Cli under = Cli.run("check", file.toString(), "--only", "big-jacobian", "--max-memory", "17.7m",
                "--format", "json", "--in-process");
        assertEquals(2, under.exit(), "a tenth of a MiB less is refused: " + under.out());
    }

    @Test
    void withoutTheOptionTheHeapDecidesAndAHugeInputIsStillRefused() throws IOException {
        Path file = dir.resolve("sizes.yaml");
        Files.writeString(file, SPECS);
        Cli r = Cli.run("check", file.toString(), "--only", "huge-input");
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.out().contains("refused: its inputs would need 223.5 GiB"), r.out());
    }

    @Test
    void jobsAndTimeoutMustBePositive() {
        Cli jobs = Cli.run("check", ".", "--jobs", "0");
        assertEquals(2, jobs.exit());
        assertTrue(jobs.err().contains("Invalid value for option '--jobs': must be between 1 and 256, got 0"), jobs.err());
        Cli timeout = Cli.run("check", ".", "--timeout", "-1");
        assertEquals(2, timeout.exit());
        assertTrue(timeout.err().contains("Invalid value for option '--timeout': must be between 0.001 and 1000000"
                + " seconds, got -1"), timeout.err());
    }

    @Test
    void sizesReadWithUnits() {
        assertEquals(10L << 20, ByteSize.parse("10m"));
        assertEquals(3L << 30, ByteSize.parse("3G"));
        assertEquals(1536, ByteSize.parse("1.5k"));
        assertEquals(4096, ByteSize.parse("4096"));
        assertEquals(4096, ByteSize.parse("4096B"));
        // the binary units as people write them: KiB, MiB, GiB, TiB, and KB, MB, GB (also powers of 1024 here)
        assertEquals(2L << 30, ByteSize.parse("2GiB"));
        assertEquals(512L << 20, ByteSize.parse("512 MiB"));
        assertEquals(3L << 10, ByteSize.parse("3KiB"));
        assertEquals(1L << 40, ByteSize.parse("1TiB"));
        assertEquals(2L << 30, ByteSize.parse("2GB"));
        assertThrows(NumberFormatException.class, () -> ByteSize.parse("lots"));
        assertThrows(NumberFormatException.class, () -> ByteSize.parse("0"));
        assertThrows(NumberFormatException.class, () -> ByteSize.parse("5iB"));
        assertEquals(2L << 50, ByteSize.parse("2PiB"));
        assertEquals(1L << 60, ByteSize.parse("1EiB"));
        assertThrows(NumberFormatException.class, () -> ByteSize.parse("8EiB"));
        assertThrows(NumberFormatException.class, () -> ByteSize.parse("99999999999999999999"));
        Cli bad = Cli.run("check", ".", "--max-memory", "lots");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("'lots' is not a size from 1 byte to under 8EiB; examples: 500MiB, 2GiB"), bad.err());
        Cli gib = Cli.run("check", "--in-process", "--max-memory", "2GiB", "no-such-dir");
        assertTrue(!gib.err().contains("--max-memory"), "2GiB is a size: " + gib.err());
    }
}
