package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gradcheck new OP} (issue 26, item 5): the spec it prints validates, has the op's inputs in ND4J's order and
 * its attributes as comments; shapes given are used as given, and a refusal is said, not hidden.
 */
class NewCommandTest {

    /** Ops of every family the suite covers whose inputs and shapes `new` can find without attributes. */
    private static final List<String> OPS = List.of("tanh", "sigmoid", "softplus", "gelu", "elu", "relu", "log",
            "sqrt", "add", "subtract", "multiply", "divide", "pow", "maximum", "squaredsubtract", "matmul", "dot",
            "reduce_sum", "reduce_mean", "reduce_max", "reduce_norm2", "reduce_logsumexp", "std", "var", "moments",
            "cumsum", "cumprod", "softmax", "log_softmax", "transpose", "permute", "reverse", "gather", "stack",
            "diag", "trace", "matrix_inverse", "biasadd", "prelu", "lrn", "im2col", "mergeadd", "l2_loss",
            "log_poisson_loss", "softmax_cross_entropy_loss_with_logits", "cosinesimilarity", "scatter_add");

    @TempDir
    Path dir;

    /**
     * Every DL4J layer type and graph vertex list-ops --layers names gets a spec that validates and passes its
     * check (all checked in one run: one engine for the lot).
     */
    @Test
    @Tag("slow") // builds, runs and checks 56 layers and vertices
    void aDl4jLayerTypeGetsASpecThatValidatesAndPasses() throws IOException {
        List<String> refused = new ArrayList<>();
        for (dev.gradcheck.op.catalog.LayerTypes type : dev.gradcheck.op.catalog.LayerTypes.all()) {
            Cli made = Cli.run("new", type.name());
            assertEquals(0, made.exit(), type.name() + ": " + made.err());
            Files.writeString(dir.resolve(type.name() + ".yaml"), made.out());
            if (!made.out().contains("It validates: DL4J built the layer")) {
                refused.add(type.name() + ": " + made.out());
            }
        }
        assertEquals(List.of(), refused);
        Cli check = Cli.run("check", dir.toString());
        assertEquals(0, check.exit(), check::out);
        assertTrue(check.out().contains(dev.gradcheck.op.catalog.LayerTypes.all().size() + " checks: "), check::out);
    }

    @Test
    @Tag("slow") // builds and runs every op of the list, several shapes each
    void theSpecNewPrintsValidatesForOpsOfEveryFamily() throws IOException {
        List<String> refused = new ArrayList<>();
        for (String op : OPS) {
            Cli made = Cli.run("new", op);
            assertEquals(0, made.exit(), op + ": " + made.err());
            Path file = dir.resolve(op + ".yaml");
            Files.writeString(file, made.out());
            Cli validate = Cli.run("validate", file.toString());
            if (validate.exit() != 0 || !made.out().contains("# It validates")) {
                refused.add(op + ": " + validate.out());
            }
        }
        assertEquals(List.of(), refused);
    }

    /**
     * Issue 35 item 7: conv2d and layer_norm came back refused, with kH: 0 placeholders; ops that need attributes
     * start from gradcheck's own suite, which validates them in every build.
     */
    @Test
    void opsThatNeedAttributesStartFromTheSuitesOwnSpec() throws IOException {
        for (String op : List.of("conv2d", "layer_norm", "avgpool2d", "maxpool2d", "batchnorm")) {
            Cli made = Cli.run("new", op, "--name", "my " + op);
            assertEquals(0, made.exit(), op + ": " + made.err());
            assertTrue(made.out().contains("from gradcheck's own suite (specs/"), made.out());
            assertTrue(made.out().contains("# It validates"), made.out());
            assertTrue(made.out().contains("\nname: \"my " + op + "\"\n"), made.out());
            Path file = dir.resolve(op + ".yaml");
            Files.writeString(file, made.out());
            Cli validate = Cli.run("validate", file.toString());
            assertEquals(0, validate.exit(), op + ": " + validate.out() + validate.err());
            assertTrue(validate.out().contains("1 spec: 1 valid"), validate.out());
        }
    }

    /** A name YAML would read as something else (a comment, a boolean, a mapping) is written quoted. */
    @Test
    void aNameIsWrittenSoItReadsBackTheSame() throws IOException {
        for (String name : List.of("x # y", "on", "k: v", "123", "\"v1\"")) {
            Cli made = Cli.run("new", "tanh", "--shape", "3", "--name", name);
            Path file = dir.resolve("named.yaml");
            Files.writeString(file, made.out());
            Cli json = Cli.run("check", file.toString(), "--collect-only", "--format", "json");
            assertEquals(0, json.exit(), name + ": " + json.err());
            assertEquals(name, new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out())
                    .at("/specs/0/name").asText(), json.out());
        }
    }

    @Test
    void theSpecHasTheInputsInNd4jsOrderAndTheAttributesAsComments() {
        Cli made = Cli.run("new", "matmul", "--shape", "2,3", "--shape", "[3, 5]", "--name", "my-matmul");
        assertEquals(0, made.exit(), made.err());
        String yaml = made.out();
        assertTrue(yaml.contains("\nname: my-matmul"), yaml);
        assertTrue(yaml.contains("\nop: matmul\n"), yaml);
        int input = yaml.indexOf("\n  input: {shape: [2, 3], init: {uniform: [0.5, 1.5]}}");
        int y = yaml.indexOf("\n  y: {shape: [3, 5], init: {uniform: [0.5, 1.5]}}");
        assertTrue(input > 0 && y > input, yaml);
        assertTrue(yaml.contains("\n#   transX: 0   # int 0\n"), yaml);
        assertTrue(yaml.contains("\n#   alpha: 0.0   # float 0\n"), yaml);
        assertTrue(yaml.contains("# It validates"), yaml);
        assertEquals("", made.err());
    }

    @Test
    void shapesNd4jRefusesAreUsedAsGivenAndTheRefusalIsSaid() throws IOException {
        Cli made = Cli.run("new", "matmul", "--shape", "2,3");
        assertEquals(0, made.exit(), made.err());
        // the one shape is used for both inputs: [2, 3] by [2, 3], which matmul refuses
        assertTrue(made.out().contains("\n  y: {shape: [2, 3]"), made.out());
        assertTrue(made.out().contains("# ND4J refused these shapes: matmul does not accept inputs input [2, 3],"
                + " y [2, 3]"), made.out());
        assertFalse(made.out().contains("It validates"), made.out());
        assertTrue(made.err().contains("does not validate yet"), made.err());
        Path file = dir.resolve("m.yaml");
        Files.writeString(file, made.out());
        assertEquals(2, Cli.run("validate", file.toString()).exit());
    }

    @Test
    void anUnknownOpOrABadShapeIsAUsageError() {
        Cli unknown = Cli.run("new", "tanhh");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().contains("unknown op 'tanhh' (did you mean 'tanh'?)"), unknown.err());
        assertEquals("", unknown.out());
        Cli shape = Cli.run("new", "tanh", "--shape", "3,zero");
        assertEquals(2, shape.exit());
        assertTrue(shape.err().contains("--shape '3,zero': expected dimensions"), shape.err());
    }

    @Test
    void anyNameIsWrittenSoThatItReadsBackAsItself() {
        // written unquoted: `x # y`, `"v1"`, `on`, `123`, `k: v` or a line break gave another name or no spec
        for (String name : List.of("x # y", "\"v1\"", "on", "123", "k: v", "a\nb", "\u0001", "tab\there",
                "nel\u0085", "sep\u2028", "\ufeffbom", "end\ufffe", "é ü 中", "- item", "[1]", "&anchor",
                "null")) {
            Cli made = Cli.run("new", "tanh", "--name", name);
            assertEquals(0, made.exit(), name + ": " + made.err());
            List<dev.gradcheck.spec.LoadedSpec> back = new dev.gradcheck.spec.SpecLoader().loadText("new.yaml", "new",
                    made.out());
            assertEquals(1, back.size(), made.out());
            assertEquals(List.of(), back.get(0).errors(), made.out());
            assertEquals(name, back.get(0).name(), made.out());
        }
    }

    @Test
    void anUnknownOpIsEchoedWithItsControlCharactersEscaped() {
        Cli unknown = Cli.run("new", "tan\u001b[31mh\u0007");
        assertEquals(2, unknown.exit());
        assertFalse(unknown.err().contains("\u001b") || unknown.err().contains("\u0007"), unknown.err());
        assertTrue(unknown.err().contains("unknown op 'tan\\u001B[31mh\\u0007'"), unknown.err());
    }
}
