package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.result.Mode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** validate, list-ops, --help and --version. */
class OtherCommandsTest {

    @TempDir
    Path dir;

    @Test
    void validateReportsEveryProblemWithItsPosition() throws IOException {
        Files.writeString(dir.resolve("ok.yaml"), CheckCommandTest.TANH);
        Files.writeString(dir.resolve("bad.yaml"), "op: tanhh\ninputs:\n  x: {shape: [2]}\n---\nop: softmax\n"
                + "attrs: {dim: 1}\ninputs:\n  x: {shape: [2]}\n");
        Cli r = Cli.run("validate", dir.toString());
        assertEquals(2, r.exit());
        assertTrue(r.out().contains("bad.yaml:1:5: unknown op 'tanhh' (did you mean 'tanh'?)"), r.out());
        assertTrue(r.out().contains("bad.yaml:6:14: unknown attribute 'dim' for op softmax"), r.out());
        assertTrue(r.out().contains("3 specs: 1 valid, 2 invalid"), r.out());
    }

    @Test
    void validateFindsGraphMistakesIncludingShapesWithoutRunningAGradient() throws IOException {
        Files.writeString(dir.resolve("graphs.yaml"), """
                graph:
                  - {op: tanh, in: [x], out: t}
                  - {op: matmul, in: [t, w], out: y}
                inputs:
                  x: {shape: [2, 3]}
                  w: {shape: [2, 3]}
                ---
                graph:
                  - {op: tanh, in: [xx], out: y}
                inputs:
                  x: {shape: [2]}
                ---
                graph:
                  - {op: matmul, in: [x, w], out: y}
                inputs:
                  x: {shape: [2, 3]}
                  w: {shape: [3, 4]}
                """);
        Cli r = Cli.run("validate", dir.toString());
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.out().contains("graphs.yaml:3:10: node 2 (matmul, out=y) does not accept its inputs"
                + " (t [2, 3], w [2, 3])"), r.out());
        assertTrue(r.out().contains("graphs.yaml:9:21: unknown name 'xx' in node 1 (tanh, out=y)"), r.out());
        assertTrue(r.out().contains("3 specs: 1 valid, 2 invalid"), r.out());
    }

    @Test
    void validateBuildsAGraphOnTheValuesCheckUsesNotOnZeros() throws IOException {
        // matrix_inverse fails on a zero matrix; check draws the spec's init, where the graph builds fine
        Files.writeString(dir.resolve("inverse.yaml"), """
                graph:
                  - {op: matrix_inverse, in: [x], out: inv}
                  - {op: tanh, in: [inv], out: y}
                inputs:
                  x: {shape: [3, 3], init: {values: [[2, 1, 0], [1, 3, 1], [0, 1, 4]]}}
                """);
        Cli r = Cli.run("validate", dir.toString());
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("1 spec: 1 valid, 0 invalid"), r.out());
    }

    /** Shapes ND4J's shape function rejects, an argument its kernel rejects, and a known error left alone. */
    static final String SHAPES = """
            name: matmul-inner-dims
            op: matmul
            inputs:
              x: {shape: [3, 2]}
              y: {shape: [3, 4]}
            ---
            name: softmax-dim-5
            op: softmax
            attrs: {dimension: 5}
            inputs:
              x: {shape: [3, 4]}
            ---
            name: known-to-fail
            op: softmax
            attrs: {dimension: 5}
            inputs:
              x: {shape: [3, 4]}
            expect: error
            reason: the kernel rejects dimension 5
            ---
            name: mask-output
            op: tanh
            inputs:
              x: {shape: [3]}
            mask: ['y[0]']
            """;

    @Test
    void validateRunsNd4jsShapeFunctionAndTheForwardOnceOnOneOpSpecs() throws IOException {
        Path file = dir.resolve("shapes.yaml");
        Files.writeString(file, SHAPES);
        Cli r = Cli.run("validate", file.toString());
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.out().contains(file + ":2:5: matmul does not accept inputs x [3, 2], y [3, 4]: ND4J's shape"
                + " function rejects them"), r.out());
        assertTrue(r.out().contains(file + ":8:5: softmax rejects inputs x [3, 4] with dimension: 5 when run once"
                + " on the spec's values"), r.out());
        assertTrue(r.out().contains(file + ":25:8: mask 'y[0]': 'y' is neither an input nor an output of tanh"),
                r.out());
        assertTrue(r.out().contains("4 specs: 1 valid, 3 invalid"), r.out());
    }

    /**
     * The engine (ND4J, in a worker JVM outside tests) starts only for a spec that needs a run: none for specs that
     * fail the checks before it, one for the first that passes them.
     */
    @Test
    void validateStartsTheEngineOnlyWhenASpecNeedsIt() throws IOException {
        java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
        dev.gradcheck.backend.BackendFactory counting = (plugins, budget) -> {
            started.incrementAndGet();
            return dev.gradcheck.backend.BackendFactory.CPU.create(plugins, budget);
        };
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "op: softmax\nattrs: {dimensoin: 1}\ninputs:\n  x: {shape: [2, 3]}\n---\n"
                + "op: tanh\ninputs:\n  x: {shape: [3]}\nmask: ['y[0]']\n");
        Cli r = Cli.runWithPlugins(counting, "validate", bad.toString());
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.out().contains("2 specs: 0 valid, 2 invalid"), r.out());
        assertEquals(0, started.get(), "no spec got past the static checks, so nothing needed ND4J");
        Path ok = dir.resolve("ok.yaml");
        Files.writeString(ok, CheckCommandTest.TANH + "---\n" + CheckCommandTest.TANH.replace("name: ", "name: b"));
        Cli both = Cli.runWithPlugins(counting, "validate", bad.toString(), ok.toString());
        assertTrue(both.out().contains("4 specs: 2 valid, 2 invalid"), both.out());
        assertEquals(1, started.get(), "one engine for the two specs that needed it (the control)");
    }

    @Test
    void checkReportsShapesTheShapeFunctionRejectsAsAnInvalidSpecAtTheOp() throws IOException {
        Path file = dir.resolve("matmul.yaml");
        Files.writeString(file, SHAPES.substring(0, SHAPES.indexOf("---")));
        Cli r = Cli.run("check", file.toString());
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.out().contains("INVALID"), r.out());
        assertTrue(r.out().contains(file + ":2:5: matmul does not accept inputs x [3, 2], y [3, 4]"), r.out());
    }

    @Test
    void validateOfValidSpecsExitsZero() throws IOException {
        Files.writeString(dir.resolve("ok.yaml"), CheckCommandTest.TANH);
        Cli r = Cli.run("validate", dir.toString());
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("1 spec: 1 valid, 0 invalid"), r.out());
    }

    @Test
    void listOpsShowsBackwardKernelsAndAttributes() {
        Cli r = Cli.run("list-ops", "softmax*");
        assertEquals(0, r.exit());
        assertTrue(r.out().matches("(?s).*\\nsoftmax\\s+yes\\s+yes\\s+int dimension.*"), r.out());
    }

    @Test
    void listOpsOfOneOpShowsItsInputsInOrderAndItsAttributesByKind() {
        Cli r = Cli.run("list-ops", "matmul");
        assertEquals(0, r.exit(), r.err());
        // from ND4J's descriptor: two inputs, input then y; nine attributes in four kinds
        assertTrue(r.out().contains("inputs: 2, in ND4J's order"), r.out());
        assertTrue(r.out().contains("\n  0  input\n  1  y\n"), r.out());
        assertTrue(r.out().contains("\n  int    transX (0), transY (1), transZ (2)\n"), r.out());
        assertTrue(r.out().contains("\n  float  alpha (0), beta (1)\n"), r.out());
        assertTrue(r.out().contains("a spec to start from: gradcheck new matmul"), r.out());
        // an integer input is named as one
        Cli sum = Cli.run("list-ops", "reduce_sum");
        assertTrue(sum.out().contains("  1  dimensions   (by its name an integer input"), sum.out());
    }

    @Test
    void listOpsJsonParses() throws IOException {
        Cli r = Cli.run("list-ops", "--json");
        JsonNode ops = new ObjectMapper().readTree(r.out());
        assertTrue(ops.size() > 300, "ND4J has hundreds of ops: " + ops.size());
        boolean conv = false;
        for (JsonNode op : ops) {
            if (op.get("name").asText().equals("conv2d")) {
                conv = op.get("bp_kernel").asBoolean() && op.get("args").size() >= 10;
            }
        }
        assertTrue(conv, "conv2d with its backward kernel and named arguments");
    }

    @Test
    void helpListsCommandsAndExitCodes() {
        Cli r = Cli.run("--help");
        assertEquals(0, r.exit());
        for (String s : new String[] {"check", "validate", "list-ops", "Exit codes", "each command's --help lists"}) {
            assertTrue(r.out().contains(s), s + " in " + r.out());
        }
        Cli check = Cli.run("check", "--help");
        assertTrue(check.out().contains("--fail-fast") && check.out().contains("Exit codes"), check.out());
        assertTrue(check.out().contains("an operator errored"), check.out());
    }

    @Test
    void modeHelpAndErrorsListEveryModeOfTheEnum() {
        String help = Cli.run("check", "--help").out().replaceAll("\\s+", " ");
        Cli bad = Cli.run("check", ".", "--mode", "exhaustive");
        assertEquals(2, bad.exit());
        for (Mode m : Mode.values()) {
            assertTrue(help.contains(m.specName()), m + " in " + help);
            assertTrue(bad.err().contains(m.specName()), m + " in " + bad.err());
        }
        assertTrue(help.contains("--mode=MODE " + String.join(", ", Mode.specNames()) + " (described in"), help);
    }

    @Test
    void versionNamesTheEngineAndTheNativePlatform() {
        Cli r = Cli.run("--version");
        assertEquals(0, r.exit());
        assertTrue(r.out().startsWith("gradcheck ") && r.out().contains("ND4J 1.0.0-M2.1"), r.out());
        // the platform the build chose for this machine (pom.xml's platform-* profiles); the suite runs on Linux
        String platform = (System.getProperty("os.arch").equals("aarch64") ? "linux-arm64" : "linux-x86_64");
        assertTrue(!System.getProperty("os.name").equals("Linux") || r.out().contains("native platform " + platform),
                r.out());
    }

    @Test
    void noCommandIsAUsageError() {
        assertEquals(2, Cli.run().exit());
    }

    @Test
    void listOpsWrapsItsAttributesToATerminalsWidth() {
        String attrs = "int kH, int kW, int sH, int sW, int pH, int pW, int dH, int dW, int isSameMode, int isNCHW";
        List<String> lines = ListOpsCommand.wrap(attrs, 40);
        assertTrue(lines.size() > 1, lines.toString());
        lines.forEach(l -> assertTrue(l.length() <= 40, l));
        assertEquals(attrs, String.join(" ", lines), "every attribute, in order");
        assertEquals(List.of(attrs), ListOpsCommand.wrap(attrs, 0), "no limit: one line");
    }
}
