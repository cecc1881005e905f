package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.backend.WorkerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One verdict per bad spec (issue 27, defect 3; issue 26, item 3): what ND4J refuses when the op is built or first
 * run, and outputs the built op does not have, are INVALID at the same file:line:col with the same message and exit
 * 2 in {@code validate} and in {@code check}, in worker JVMs as in-process. Before, check reported the first three
 * as operator errors (exit 3, no position) and validate accepted the fourth.
 */
class OneVerdictTest {

    @TempDir
    Path dir;

    /** A bad spec and its one problem, {@code line:col: message}. */
    record Bad(String name, String yaml, String problem) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Bad> badSpecs() {
        return Stream.of(
                // was: check ERROR "IllegalArgumentException: expected true or false, got 5", exit 3
                new Bad("amax-keepdims", """
                        op: amax
                        attrs: {dimensions: [1], keepDims: 5}
                        inputs:
                          x: {shape: [2, 3]}
                        """, "2:36: attribute 'keepDims' of amax: expected true or false, got 5"),
                // was: check ERROR "ND4JIllegalStateException: Axis array [-100] contains values above ...", exit 3
                new Bad("reduce-min-dimension", """
                        op: reduce_min
                        attrs: {dimensions: [-100]}
                        inputs:
                          x: {shape: [2, 3]}
                        """, "1:5: reduce_min rejects inputs x [2, 3] with dimensions: [-100] when run once on the"
                        + " spec's values: Axis array [-100] contains values above array rank (rank=2)"),
                // was: check ERROR "IllegalStateException: Expected at least 2 inputs to mmul op", exit 3
                new Bad("matmul-one-input", """
                        op: matmul
                        inputs:
                          x: {shape: [2, 3]}
                        """, "1:5: ND4J cannot build matmul on inputs x [2, 3]: Expected at least 2 inputs to mmul"
                        + " op, got [DOUBLE]"),
                // was: validate "1 spec: 1 valid", exit 0
                new Bad("output-99", """
                        op: tanh
                        output: 99
                        inputs:
                          x: {shape: [2, 3]}
                        """, "2:9: output '99' does not exist: tanh has 1 output (0)"),
                // a graph node's attribute is blamed the same way
                new Bad("graph-keepdims", """
                        graph:
                          - {op: amax, in: [x], out: y, attrs: {dimensions: [1], keepDims: 5}}
                        inputs:
                          x: {shape: [2, 3]}
                        """, "2:68: attribute 'keepDims' of amax: expected true or false, got 5"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSpecs")
    void validateAndCheckGiveOneVerdictInProcess(Bad bad) throws IOException {
        assertOneVerdict(bad, Cli::run);
    }

    @Test
    @Tag("slow") // starts worker JVMs
    void validateAndCheckGiveOneVerdictInWorkersAndInProcess() throws IOException {
        for (Bad bad : badSpecs().toList()) {
            assertOneVerdict(bad, args -> Cli.runWithWorkers(WorkerOptions.cpu(), args));
            assertOneVerdict(bad, args -> Cli.runWithWorkers(WorkerOptions.cpu(), withInProcess(args)));
        }
    }

    private static String[] withInProcess(String[] args) {
        String[] more = new String[args.length + 1];
        more[0] = args[0];
        more[1] = "--in-process";
        System.arraycopy(args, 1, more, 2, args.length - 1);
        return more;
    }

    /** validate prints the problem and exits 2; check reports it INVALID with the same text and exits 2. */
    private void assertOneVerdict(Bad bad, Function<String[], Cli> cli) throws IOException {
        Path file = dir.resolve(bad.name() + ".yaml");
        Files.writeString(file, bad.yaml());
        String problem = file + ":" + bad.problem();

        Cli validate = cli.apply(new String[] {"validate", file.toString()});
        assertEquals(2, validate.exit(), bad + ": " + validate.out() + validate.err());
        assertEquals(problem + "\n1 spec: 0 valid, 1 invalid\n", validate.out(), bad + ": " + validate.err());

        Cli check = cli.apply(new String[] {"check", "--format", "json", file.toString()});
        assertEquals(2, check.exit(), bad + ": " + check.out() + check.err());
        JsonNode result = new ObjectMapper().readTree(check.out()).get("checks").get(0);
        assertEquals("invalid", result.get("status").asText(), bad + ": " + result);
        assertEquals(problem, result.get("message").asText(), bad + ": one refusal, one message");
    }

    @Test
    void aSpecThatExpectsAnErrorKeepsTheErrorItRecords() throws IOException {
        // what ND4J refuses is the failure such a spec records: check reports it as the expected error, and
        // validate accepts the spec, as before any checking
        Path file = dir.resolve("expected.yaml");
        Files.writeString(file, """
                op: matmul
                inputs:
                  x: {shape: [2, 3]}
                expect: error
                reason: one input
                """);
        Cli validate = Cli.run("validate", file.toString());
        assertEquals(0, validate.exit(), validate.out() + validate.err());
        Cli check = Cli.run("check", "--format", "json", file.toString());
        assertEquals(0, check.exit(), check.out() + check.err());
        JsonNode result = new ObjectMapper().readTree(check.out()).get("checks").get(0);
        assertEquals("expected_error", result.get("status").asText(), result.toString());
        assertEquals(List.of("IllegalStateException: Expected at least 2 inputs to mmul op, got [DOUBLE]"),
                List.of(result.get("message").asText()));
    }

    @Test
    void everyProblemOfADocumentIsReportedInOnePassByValidateAndCheck() throws IOException {
        // unknown keys, a misspelt attribute, an ill-typed attribute and a bad value: before, only the keys and the
        // value were reported, the attributes once those were fixed
        Path file = dir.resolve("many.yaml");
        Files.writeString(file, """
                op: cumsum
                colour: red
                tolerence: 1
                attrs: {exclusiv: 1, reverse: banana}
                inputs:
                  x: {shape: [2, 3], init: {uniform: [2, -2]}}
                """);
        List<String> lines = List.of(
                file + ":2:1: unknown key 'colour'",
                file + ":3:1: unknown key 'tolerence' (did you mean 'tolerance'?)",
                file + ":4:19: unknown attribute 'exclusiv' for op cumsum",
                file + ":4:31: attribute 'reverse' of cumsum: expected an integer, got string 'banana'",
                file + ":6:38: 'inputs.x.init.uniform' needs low < high, got [2, -2]");
        Cli validate = Cli.run("validate", file.toString());
        assertEquals(2, validate.exit(), validate.out() + validate.err());
        assertStartsInOrder(lines, validate.out().lines().toList().subList(0, lines.size()));
        Cli check = Cli.run("check", "--format", "json", file.toString());
        assertEquals(2, check.exit(), check.out() + check.err());
        JsonNode result = new ObjectMapper().readTree(check.out()).get("checks").get(0);
        assertEquals("invalid", result.get("status").asText(), result.toString());
        assertStartsInOrder(lines, result.get("message").asText().lines().toList());
    }

    @Test
    void anUnknownOpIsReportedWithTheDocumentsOtherProblems() throws IOException {
        Path file = dir.resolve("unknown-op.yaml");
        Files.writeString(file, """
                op: softmaxx
                shapee: 3
                inputs:
                  x: {shape: [2, 3]}
                """);
        Cli validate = Cli.run("validate", file.toString());
        assertEquals(2, validate.exit(), validate.out() + validate.err());
        assertStartsInOrder(List.of(file + ":1:5: unknown op 'softmaxx' (did you mean 'softmax'?)",
                file + ":2:1: unknown key 'shapee'"), validate.out().lines().limit(2).toList());
    }

    @Test
    @Tag("slow") // starts worker JVMs
    void validateInAWorkerGivesLibnd4jsOwnReasonAsCheckDoes() throws IOException {
        // ND4J's exception says only "Op validation failed"; libnd4j printed why on the worker's output. Before,
        // check's report added those words and validate did not
        Path file = dir.resolve("softmax.yaml");
        Files.writeString(file, """
                op: softmax
                attrs: {dimension: 5}
                inputs:
                  x: {shape: [4, 7]}
                """);
        String reason = "libnd4j: SOFTMAX OP: the value of input integer parameter (dimension) must be less than"
                + " input array rank 2";
        Cli validate = Cli.runWithWorkers(WorkerOptions.cpu(), "validate", file.toString());
        assertEquals(2, validate.exit(), validate.out() + validate.err());
        List<String> out = validate.out().lines().toList();
        assertTrue(out.get(0).startsWith(file + ":1:5: softmax rejects inputs x [4, 7] with dimension: 5"), out.get(0));
        assertTrue(out.get(0).contains(" failed; " + reason), "on the problem's own line: " + validate.out());
        Cli check = Cli.runWithWorkers(WorkerOptions.cpu(), "check", "--format", "json", file.toString());
        assertEquals(2, check.exit(), check.out() + check.err());
        String message = new ObjectMapper().readTree(check.out()).get("checks").get(0).get("message").asText();
        assertEquals(out.get(0), message, "one refusal, one message, one line");
    }

    private static void assertStartsInOrder(List<String> prefixes, List<String> lines) {
        assertEquals(prefixes.size(), lines.size(), String.join("\n", lines));
        for (int i = 0; i < prefixes.size(); i++) {
            assertTrue(lines.get(i).startsWith(prefixes.get(i)), prefixes.get(i) + "\n" + String.join("\n", lines));
        }
    }
}
