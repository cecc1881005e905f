package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.backend.WorkerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ND4J's logs and libnd4j's prints are kept per check, off the terminal unless --verbose; an operator error carries
 * libnd4j's own words for its cause (issue 14 item 4, issue 13 item 6).
 */
@Tag("slow") // starts worker JVMs
class EngineOutputCliTest {

    /**
     * Two specs ND4J refuses when it first runs the op, whose cause only libnd4j prints (INVALID, as validate says:
     * one verdict per bad spec), and a passing check that makes ND4J warn.
     */
    private static final String SPECS = """
            name: matmul-bad
            op: matmul
            inputs:
              x: {shape: [3, 2]}
              y: {shape: [3, 4]}
            ---
            name: softmax-dim5
            op: softmax
            attrs: {dimension: 5}
            inputs:
              x: {shape: [3, 4]}
            ---
            name: pad-warns
            op: pad
            attrs: {mode: 0, padValue: 0.0}
            inputs:
              x: {shape: [2, 3]}
              paddings: {shape: [2, 2], dtype: int32, init: {values: [[1, 0], [0, 2]]}}
            """;

    @TempDir
    Path dir;
    private Path specs;

    @BeforeEach
    void writeSpecs() throws IOException {
        specs = dir.resolve("noisy.yaml");
        Files.writeString(specs, SPECS);
    }

    @Test
    void refusedSpecsSayWhatLibnd4jSaidAndStderrStaysClean() {
        Cli r = Cli.runWithWorkers(WorkerOptions.cpu(), "check", specs.toString());
        assertEquals(2, r.exit(), "the spec's mistake, not the operator's: " + r.out() + r.err());
        assertTrue(r.out().contains("libnd4j: ShapeUtils::evalShapeForMatmul static method: input shapes are"
                + " inconsistent: xDim 2 != yDim 3"), r.out());
        assertTrue(r.out().contains("libnd4j: SOFTMAX OP: the value of input integer parameter (dimension) must be"
                + " less than input array rank 2, but got dimension = 5 instead ! (softmax.cpp:47)"), r.out());
        assertTrue(r.out().contains("printed during the check:"), "the ERROR rows carry their lines: " + r.out());
        assertFalse(r.out().contains("No fields found"), "a pass shows no log lines: " + r.out());
        for (String noise : new String[] {"NativeOpExecutioner", "No fields found", "ShapeUtils", "Error at"}) {
            assertFalse(r.err().contains(noise), noise + " on stderr: " + r.err());
        }
    }

    /** One run: the log of each check in the JSON report, and (--verbose) the same lines on stderr as they came. */
    @Test
    void theJsonReportKeepsEachChecksOwnLinesAndVerboseShowsThem() throws IOException {
        Cli r = Cli.runWithWorkers(WorkerOptions.cpu(), "check", specs.toString(), "--format", "json", "--verbose");
        JsonNode checks = new ObjectMapper().readTree(r.out()).get("checks");
        JsonNode matmul = checks.get(0).get("log");
        assertTrue(matmul.toString().contains("xDim 2 != yDim 3") && matmul.toString().contains("matmul"),
                matmul.toString());
        assertFalse(matmul.toString().contains("softmax"), "the next check's lines are its own: " + matmul);
        assertTrue(checks.get(1).get("log").toString().contains("SOFTMAX OP"), checks.get(1).toString());
        JsonNode pad = checks.get(2);
        assertEquals("passed", pad.get("status").asText(), pad.toString());
        assertTrue(pad.get("log").toString().contains("No fields found for property name padValue"), pad.toString());
        for (String line : new String[] {"xDim 2 != yDim 3", "SOFTMAX OP", "No fields found for property name padValue",
            "NativeOpExecutioner"}) {
            assertTrue(r.err().contains(line), line + " with --verbose: " + r.err());
        }
        assertFalse(r.err().contains("Added differentiated op"), "SameDiff's chatter is never worth showing");
    }

    @Test
    void inProcessChecksKeepTheJavaLinesTheirThreadPrinted() throws IOException {
        Cli r = Cli.run("check", specs.toString(), "--in-process", "--only", "pad-warns", "--format", "json");
        JsonNode pad = new ObjectMapper().readTree(r.out()).get("checks").get(0);
        assertTrue(pad.get("log").toString().contains("No fields found for property name padValue"), pad.toString());
        assertFalse(r.err().contains("No fields found"), r.err());
    }
}
