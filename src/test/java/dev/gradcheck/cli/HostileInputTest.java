package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.backend.WorkerOptions;
import java.io.IOException;
import java.util.List;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input, one example each (from issue 16 and from HostileInputFuzzTest's findings): a spec that cannot be
 * built, sized or read is one INVALID spec with its position, and the specs beside it are still validated and
 * checked, in {@code validate} as in {@code check}.
 */
class HostileInputTest {

    @TempDir
    Path dir;

    private Path write(String name, String yaml) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, yaml);
        return file;
    }

    /** validate of a good spec and {@code yaml} beside it: the one problem line, and the good spec still counted. */
    private void assertValidateKeepsTheBatch(String yaml, String expectedLine, String... options) throws IOException {
        write("a-good.yaml", CheckCommandTest.TANH);
        Path bad = write("m-bad.yaml", yaml);
        write("z-good.yaml", CheckCommandTest.TANH.replace("tanh-ok", "tanh-last"));
        String[] args = new String[options.length + 2];
        args[0] = "validate";
        System.arraycopy(options, 0, args, 1, options.length);
        args[args.length - 1] = dir.toString();
        Cli r = Cli.run(args);
        assertEquals(2, r.exit(), r.out() + r.err());
        assertFalse(r.err().contains("internal error"), r.err());
        assertEquals(bad + ":" + expectedLine + "\n3 specs: 2 valid, 1 invalid\n", r.out(), r.err());
    }

    private static final String EMPTY_GRAPH_INPUT = """
            graph:
              - {op: tanh, in: [x], out: y}
            inputs:
              x: {shape: [3, 0]}
            """;

    @Test
    void validateKeepsTheBatchPastAGraphWithAnEmptyInput() throws IOException {
        // was: internal error "Empty arrays cannot be used when creating variables", exit 3, nothing printed
        assertValidateKeepsTheBatch(EMPTY_GRAPH_INPUT, "4:14: input 'x' has no elements (shape [3, 0]): nothing to"
                + " differentiate; give it a non-zero shape, or keep it out of check (no_grad) if the op needs it"
                + " empty");
    }

    private static final String ADD_OF_THREE = """
            graph:
              - {op: add, in: [x, y, z], out: s}
            inputs:
              x: {shape: [2]}
              y: {shape: [2]}
              z: {shape: [2]}
            """;

    @Test
    void validateKeepsTheBatchPastAnAddOfThreeInputs() throws IOException {
        // was: internal error "Expected exactly 2 input datatypes", exit 3
        assertValidateKeepsTheBatch(ADD_OF_THREE, "2:10: node 1 (add, out=s) cannot be built on its inputs (x [2],"
                + " y [2], z [2]): Expected exactly 2 input datatypes for class"
                + " org.nd4j.linalg.api.ops.impl.transforms.pairwise.arithmetic.AddOp, got input [DOUBLE, DOUBLE,"
                + " DOUBLE]");
    }

    @Test
    void validateKeepsTheBatchPastAnInt32MatmulInput() throws IOException {
        // was: internal error "Inputs to mmul op must both be a floatingpoint type", exit 3
        assertValidateKeepsTheBatch("""
                graph:
                  - {op: matmul, in: [x, w], out: y}
                inputs:
                  x: {shape: [2, 2], dtype: int32}
                  w: {shape: [2, 2]}
                """, "2:10: node 1 (matmul, out=y) cannot be built on its inputs (x [2, 2] int32, w [2, 2]): Inputs to"
                + " mmul op must both be a floatingpoint type: got [INT, DOUBLE]");
    }

    private static final String OVERFLOWING = """
            graph:
              - {op: tanh, in: [x], out: y}
            inputs:
              x: {shape: [65536, 65536, 65536]}
            """;

    @Test
    void validateKeepsTheBatchPastAShapeNoArrayCanHold() throws IOException {
        // was: internal error "ArithmeticException: integer overflow", exit 3
        assertValidateKeepsTheBatch(OVERFLOWING, "1:1: refused: its inputs would need 6.0 PiB, over the memory limit"
                + " of 1.0 GiB (--max-memory; a smaller shape or check: fewer inputs fits)", "--max-memory", "1g");
        Cli generous = Cli.run("validate", "--max-memory", "1e18", dir.resolve("m-bad.yaml").toString());
        assertEquals(2, generous.exit(), generous.out() + generous.err());
        assertEquals(dir.resolve("m-bad.yaml") + ":4:3: refused: input 'x' has 281474976710656 elements, more than"
                + " one input can hold (2147483639)\n1 spec: 0 valid, 1 invalid\n", generous.out());
    }

    @Test
    void validateKeepsTheBatchPastAShapeOverTheMemoryLimit() throws IOException {
        // was: OutOfMemoryError with a stack trace, exit 1 (the mismatch code)
        write("a-good.yaml", CheckCommandTest.TANH);
        Path bad = write("m-bad.yaml", """
                graph:
                  - {op: tanh, in: [x], out: y}
                inputs:
                  x: {shape: [1000, 1000, 1000]}
                """);
        Cli r = Cli.run("validate", dir.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.out().startsWith(bad + ":1:1: refused: its inputs would need 22.4 GiB, over the memory limit of"),
                r.out());
        assertTrue(r.out().endsWith("\n2 specs: 1 valid, 1 invalid\n"), r.out());
    }

    /** 40000 x 1 by 1 x 10000: small inputs, a 3.2 GB product. */
    private static final String HUGE_NODE = """
            graph:
              - {op: matmul, in: [x, w], out: y}
              - {op: tanh, in: [y], out: t}
            inputs:
              x: {shape: [40000, 1]}
              w: {shape: [1, 10000]}
            output: t
            """;

    @Test
    void validateWeighsANodeOutputBeforeRunningTheNodeAsCheckDoes() throws IOException {
        // was: "valid" at a 6.3 GB peak
        write("a-good.yaml", CheckCommandTest.TANH);
        Path bad = write("m-bad.yaml", HUGE_NODE);
        String refusal = bad + ":2:10: refused: node 1 (matmul, out=y): its output (with the graph's values so far)"
                + " would need 3.0 GiB, over the memory limit of 100.0 MiB (--max-memory; smaller shapes fit)";
        Cli validate = Cli.run("validate", "--max-memory", "100m", dir.toString());
        assertEquals(2, validate.exit(), validate.out() + validate.err());
        assertEquals(refusal + "\n2 specs: 1 valid, 1 invalid\n", validate.out());

        Cli check = Cli.run("check", "--max-memory", "100m", "--format", "json", dir.toString());
        assertEquals(2, check.exit(), check.out() + check.err());
        JsonNode checks = new ObjectMapper().readTree(check.out()).get("checks");
        assertEquals("passed", checks.get(0).get("status").asText());
        assertEquals("invalid", checks.get(1).get("status").asText());
        assertEquals(refusal, checks.get(1).get("message").asText(), "one guard, one message");
    }

    @Test
    @Tag("slow") // starts worker JVMs
    void aGraphThatCrashesNd4jCostsValidateOneSpecNotTheBatch() throws IOException {
        // found by HostileInputFuzzTest: gather with an index out of range segfaults inside ND4J, and validate ran
        // graphs in its own JVM: the whole batch died with it
        write("a-good.yaml", CheckCommandTest.TANH);
        Path bad = write("m-gather.yaml", """
                graph:
                  - {op: gather, in: [x, i], out: y, attrs: {dimensions: [0]}}
                inputs:
                  x: {shape: [3, 5]}
                  i: {shape: [2], dtype: int32, init: {values: [1000000, -7]}}
                """);
        write("z-good.yaml", HostileInputFuzzTest.GOOD_LAST);
        Cli r = Cli.runWithWorkers(WorkerOptions.cpu(), "validate", dir.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.out().startsWith(bad + ":1:1: running its graph once crashed the worker JVM (SIGSEGV in native"
                + " code"), r.out());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).endsWith("); `gradcheck check` would report it as CRASHED"), r.out());
        // the worker's last output (the JVM's fatal-error banner) indented under the problem, then the summary
        assertTrue(lines.size() > 2, "the worker's last output is shown: " + r.out());
        assertTrue(lines.subList(1, lines.size() - 1).stream().allMatch(l -> l.startsWith("    ")), r.out());
        assertEquals("3 specs: 2 valid, 1 invalid", lines.get(lines.size() - 1),
                "the graph after it is validated on a fresh worker: " + r.out());
    }

    @Test
    void checkWeighsAnOpOutputBeforeRunningTheOp() throws IOException {
        Path bad = write("outer.yaml", """
                op: matmul
                inputs:
                  x: {shape: [40000, 1]}
                  w: {shape: [1, 10000]}
                """);
        Cli r = Cli.run("check", "--max-memory", "100m", bad.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains(bad + ":1:1: refused: its outputs (with its inputs) would need 3.0 GiB, over the"
                + " memory limit of 100.0 MiB"), r.out());
    }

    @Test
    void checkOfAnEmptyInputIsInvalidNotAnOperatorError() throws IOException {
        // was: error "ArithmeticException: / by zero", exit 3
        write("a-good.yaml", CheckCommandTest.TANH);
        Path rows = write("rows.yaml", "op: tanh\ninputs:\n  x: {shape: [3, 0]}\n");
        Path cols = write("cols.yaml", "op: tanh\ninputs:\n  x: {shape: [0, 3]}\n");
        Cli r = Cli.run("check", "--format", "json", dir.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        JsonNode checks = new ObjectMapper().readTree(r.out()).get("checks");
        assertEquals("passed", checks.get(0).get("status").asText());
        assertEquals(cols + ":3:14: input 'x' has no elements (shape [0, 3]): nothing to differentiate; give it a"
                + " non-zero shape, or keep it out of check (no_grad) if the op needs it empty",
                checks.get(1).get("message").asText());
        assertEquals("invalid", checks.get(2).get("status").asText());
        assertTrue(checks.get(2).get("message").asText().startsWith(rows + ":3:14: input 'x' has no elements"),
                checks.get(2).toString());
    }

    @Test
    void checkOfAGraphAddOfThreeInputsIsInvalidNotAnOperatorError() throws IOException {
        // was: status error, exit 3
        Path add = write("add.yaml", ADD_OF_THREE);
        Cli r = Cli.run("check", add.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("INVALID") && r.out().contains(add + ":2:10: node 1 (add, out=s) cannot be built"),
                r.out());
    }

    @Test
    void aDeviceIsRefusedByNameWithoutReadingItInEveryCommand() throws IOException {
        // was: OutOfMemoryError with frames, exit 1, nothing on stdout
        Path good = write("good.yaml", CheckCommandTest.TANH);
        for (String command : new String[] {"validate", "check"}) {
            Cli r = Cli.run(command, good.toString(), "/dev/zero");
            assertEquals(2, r.exit(), command + ": " + r.out() + r.err());
            assertTrue(r.out().contains("/dev/zero:1:1: not a regular file (a character device); only regular files"
                    + " are read as specs, this one was not read"), command + ": " + r.out());
            assertTrue(r.out().contains(command.equals("check") ? "1 passed" : "1 valid"), r.out());
        }
        Cli coverage = Cli.run("coverage", good.toString(), "/dev/zero");
        assertEquals(0, coverage.exit(), coverage.err());
        assertTrue(coverage.err().contains("1 invalid spec(s) not counted"), coverage.err());
    }

    @Test
    void aFifoWithoutAWriterIsRefusedWithoutOpeningIt() throws Exception {
        // was: validate hung, blocked in open()
        Path good = write("good.yaml", CheckCommandTest.TANH);
        Path fifo = dir.resolve("pipe.yaml");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Cli r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Cli.run("validate", dir.toString()));
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(fifo + ":1:1: not a regular file (a FIFO); only regular files are read as specs, this one was"
                + " not read\n2 specs: 1 valid, 1 invalid\n", r.out(), "a FIFO in a walked directory is named, not"
                + " silently left out");
        Cli check = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Cli.run("check", good.toString(),
                fifo.toString()));
        assertEquals(2, check.exit(), check.out());
        assertTrue(check.out().contains("1 passed") && check.out().contains("(a FIFO)"), check.out());
    }

    @Test
    void aFileTooLargeToBeASpecIsRefusedUnread() throws IOException {
        Path huge = dir.resolve("huge.yaml");
        try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength((3L << 20) + 1); // sparse: costs no disk
        }
        Cli r = Cli.run("validate", huge.toString());
        assertEquals(2, r.exit());
        // issue 27, defect 8: the limit is SnakeYAML's (it refused such documents only after parsing 3 MiB of them)
        assertEquals(huge + ":1:1: 3145729 bytes, larger than 3 MiB (3,145,728 bytes), the limit for a spec file"
                + " (docs/spec-format.md#limits); not read\n1 spec: 0 valid, 1 invalid\n", r.out());
    }

    @Test
    void textQuotedFromAHostileFileStaysOnOneLine() throws IOException {
        // found by HostileInputFuzzTest: a U+2028 in a value broke the message over two lines
        Path bad = write("bad.yaml", "op: elu\nattrs: {alpha: \"a\\u2028b\\u0000\"}\ninputs:\n  x: {shape: [2]}\n");
        Cli r = Cli.run("validate", bad.toString());
        assertEquals(2, r.exit());
        assertEquals(bad + ":2:16: attribute 'alpha' of elu: expected a number, got string 'a\\u2028b\\u0000'\n"
                + "1 spec: 0 valid, 1 invalid\n", r.out());
    }
}
