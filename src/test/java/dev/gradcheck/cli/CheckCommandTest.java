package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.nd4j.InProcessBackend;
import dev.gradcheck.check.Functions;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.Engine;
import dev.gradcheck.spec.MemoryBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gradcheck check} end to end through picocli: streams, formats and exit codes. */
public class CheckCommandTest {

    public static final String TANH = """
            name: tanh-ok
            op: tanh
            inputs:
              x: {shape: [2, 3]}
            """;

    @TempDir
    Path dir;

    private Path write(String name, String yaml) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, yaml);
        return file;
    }

    @Test
    void passingSpecsExitZeroWithTheTableOnStdout() throws IOException {
        write("a/tanh.yaml", TANH);
        Cli r = Cli.run("check", dir.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("STATUS"), r.out());
        assertTrue(r.out().matches("(?s).*\\npassed\\s+tanh-ok.*"), r.out());
        assertTrue(r.out().contains("1 check: 1 passed, 0 failed"), r.out());
    }

    @Test
    void jsonGoesToStdoutAndParses() throws IOException {
        write("tanh.yaml", TANH);
        Cli r = Cli.run("check", dir.toString(), "--format", "json");
        assertEquals(0, r.exit());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals(1, json.get("schema_version").asInt());
        assertEquals("passed", json.get("checks").get(0).get("status").asText());
        assertEquals("x", json.get("checks").get(0).get("gradients").get(0).get("input").asText());
    }

    /** A DL4J layer spec reports as an op spec does: one row per input and per parameter, the layer as its op. */
    @Test
    void aLayerSpecsJsonNamesItsParametersRows() throws IOException {
        write("dense.yaml", "name: dense\nlayer: {type: DenseLayer, nOut: 3, activation: tanh}\n"
                + "inputs:\n  x: {shape: [2, 4]}\n");
        Cli r = Cli.run("check", dir.toString(), "--format", "json");
        assertEquals(0, r.exit(), r.err());
        JsonNode check = new ObjectMapper().readTree(r.out()).get("checks").get(0);
        assertEquals("DenseLayer", check.get("op").asText());
        List<String> inputs = new java.util.ArrayList<>();
        check.get("gradients").forEach(g -> {
            if (g.get("kind").asText().equals("jacobian")) {
                inputs.add(g.get("input").asText());
            }
        });
        assertEquals(List.of("x", "W", "b"), inputs);
    }

    @Test
    void aWrongBackwardExitsOneAndTheReportNamesTheInput() throws IOException {
        write("tanh.yaml", TANH);
        Nd4jOpBuilder builder = new Nd4jOpBuilder(OpCatalog.nd4j());
        // a backend whose tanh backward is 2% off: the checker must say so
        Supplier<Backend> wrong = () -> new InProcessBackend(Engine.CPU,
                (spec, in) -> Functions.withBackward(builder.build(spec, in), Functions.scaledBy(1.02)),
                MemoryBudget.forThisJvm());
        Cli r = Cli.run(wrong, "check", dir.toString());
        assertEquals(1, r.exit());
        assertTrue(r.out().matches("(?s).*\\nFAILED\\s+tanh-ok.*"), r.out());
        assertTrue(r.out().matches("(?s).*d0/dx: mismatch, max rel err 2\\.00e-02.*worst at out\\[.*\\] / x\\[.*"),
                r.out());
    }

    /**
     * Issue 26: a wrong backward through check's formats: GitHub gets one annotation at the spec's file and line,
     * JSON says the check is unexpected and where its worst entry is, and the table ends with the recap.
     */
    @Test
    void aWrongBackwardIsAnnotatedForGithubAndItsWorstEntryIsInTheJson() throws IOException {
        Path spec = write("tanh.yaml", TANH);
        Nd4jOpBuilder builder = new Nd4jOpBuilder(OpCatalog.nd4j());
        Supplier<Backend> wrong = () -> new InProcessBackend(Engine.CPU,
                (s, in) -> Functions.withBackward(builder.build(s, in), Functions.scaledBy(1.02)),
                MemoryBudget.forThisJvm());
        Cli github = Cli.run(wrong, "check", dir.toString(), "--format", "github");
        assertEquals(1, github.exit());
        List<String> lines = github.out().lines().toList();
        assertEquals(2, lines.size(), github.out());
        assertTrue(lines.get(0).startsWith("::error file=") && lines.get(0).contains("tanh.yaml,line=1,col=1,"
                + "title=gradcheck FAILED tanh-ok::d0/dx: mismatch, max rel err 2.00e-02"), lines.get(0));
        assertTrue(lines.get(1).startsWith("1 check: 0 passed, 1 failed"), lines.get(1));
        JsonNode check = new ObjectMapper().readTree(Cli.run(wrong, "check", dir.toString(), "--format", "json")
                .out()).get("checks").get(0);
        assertTrue(check.get("unexpected").asBoolean());
        assertEquals("d0/dx", check.at("/worst/block").asText());
        double analytic = check.at("/worst/analytic").asDouble();
        assertEquals(1.02 * check.at("/worst/numerical").asDouble(), analytic, 1e-6 * Math.abs(analytic));
        Path second = write("two.yaml", TANH.replace("tanh-ok", "tanh-too"));
        String table = Cli.run(wrong, "check", dir.toString()).out();
        assertTrue(table.matches("(?s).*\nunexpected results \\(exit code 1\\):\nFAILED  tanh-ok   +"
                + java.util.regex.Pattern.quote(spec + ":1:1") + " +d0/dx: mismatch[^\n]*\nFAILED  tanh-too  +"
                + java.util.regex.Pattern.quote(second + ":1:1") + " +d0/dx: mismatch.*"), table);
    }

    @Test
    void aFailingGraphNamesTheWrongNodeInTableAndJson() throws IOException {
        write("graph.yaml", """
                name: graph-with-gather
                graph:
                  - {op: sin, in: [x], out: s}
                  - {op: gather, in: [s, idx], out: g, attrs: {dimensions: [0]}}
                  - {op: tanh, in: [g], out: y}
                inputs:
                  x: {shape: [3, 2]}
                  idx: {shape: [3], dtype: int32, init: {values: [2, 0, 2]}}
                """);
        Cli r = Cli.run("check", dir.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("\n  node 2 (gather, out=g): backward mismatch, max rel err "), r.out());
        assertFalse(r.out().contains("node 1 (sin"), "only wrong nodes are listed: " + r.out());
        JsonNode nodes = new ObjectMapper().readTree(Cli.run("check", dir.toString(), "--format", "json").out())
                .get("checks").get(0).get("nodes");
        assertEquals(3, nodes.size());
        assertEquals("gather", nodes.get(1).get("op").asText());
        assertTrue(nodes.get(1).get("wrong").asBoolean());
        assertFalse(nodes.get(0).get("wrong").asBoolean());
    }

    @Test
    void anExpectedFailureThatPassesExitsOne() throws IOException {
        write("xpass.yaml", TANH + "expect: fail\nreason: thought to be broken\n");
        Cli r = Cli.run("check", dir.toString());
        assertEquals(1, r.exit());
        assertTrue(r.out().contains("UNEXPECTED_PASS"), r.out());
    }

    @Test
    void aBadSpecExitsTwoWithItsPositionAndTheRestStillRuns() throws IOException {
        write("bad.yaml", "op: tanh\ninputs:\n  x: {shape: [2, 3], dtype: float65}\n");
        write("good.yaml", TANH);
        Cli r = Cli.run("check", dir.toString());
        assertEquals(2, r.exit());
        assertTrue(r.out().matches("(?s).*\\npassed\\s+tanh-ok.*"), r.out());
        assertTrue(r.out().contains("bad.yaml:3:29: unknown dtype 'float65'"), r.out());
        assertFalse(r.out().contains("Exception"), "no stack traces: " + r.out());
    }

    @Test
    void anOperatorErrorExitsThree() throws IOException {
        write("logsm.yaml", "op: log_softmax\nattrs: {dimension: 1}\ninputs:\n  x: {shape: [2, 3]}\n");
        write("good.yaml", TANH);
        Cli r = Cli.run("check", dir.toString());
        assertEquals(3, r.exit());
        assertTrue(r.out().contains("ERROR"), r.out());
        assertTrue(r.out().matches("(?s).*\\npassed\\s+tanh-ok.*"), r.out());
    }

    @Test
    void anExpectedErrorExitsZero() throws IOException {
        write("logsm.yaml", "op: log_softmax\nattrs: {dimension: 1}\ninputs:\n  x: {shape: [2, 3]}\n"
                + "expect: error\nreason: SameDiff cannot clone LogSoftMax for its gradient\n");
        Cli r = Cli.run("check", dir.toString());
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("expected_error"), r.out());
    }

    @Test
    void aMissingPathIsReportedAndTheOthersAreStillChecked() throws IOException {
        Path good = write("good.yaml", TANH);
        Cli r = Cli.run("check", dir.resolve("nope").toString(), good.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("nope: no such file or directory"), r.err());
        assertTrue(r.out().matches("(?s).*\\npassed\\s+tanh-ok.*"), r.out());
    }

    /**
     * Issue 35 item 9: at 100 columns the live table kept STATUS 15 wide (for statuses a spec expecting to pass
     * cannot get) and cut OP to cums…/cump…; now STATUS is as wide as "INVALID" and each op shows whole.
     */
    @Test
    void theLiveTableSizesStatusToTheStatusesItsSpecsCanEndIn() throws IOException {
        StringBuilder yaml = new StringBuilder();
        for (String op : List.of("cumsum", "cumprod")) {
            yaml.append(yaml.isEmpty() ? "" : "---\n").append("name: reductions-cumulative-").append(op)
                    .append("-along-axis-zero\nop: ").append(op).append("\ninputs:\n  x: {shape: [3]}\n");
        }
        Path specs = write("cumulative.yaml", yaml.toString());
        var terminal = new dev.gradcheck.cli.term.Terminal(true, 100, false, () -> 0, java.util.Map.of());
        Cli r = Cli.onTerminal(terminal, "check", specs.toString(), "--color", "never");
        List<String> rows = r.out().lines().filter(l -> !l.startsWith(" ")).toList(); // not detail lines
        assertTrue(rows.get(0).startsWith("STATUS   SPEC"), r.out());
        assertTrue(rows.get(1).matches("\\S+ +\\S+ +cumsum .*"), r.out());
        assertTrue(rows.get(2).matches("\\S+ +\\S+ +cumprod .*"), r.out());
    }

    /** A CI test tab must not show green while the job fails for a misspelt path: the path is a row of each. */
    @Test
    void aMissingPathIsAnInvalidRowOfEveryReport() throws IOException {
        Path good = write("good.yaml", TANH);
        String nope = dir.resolve("nope.yaml").toString();
        Cli json = Cli.run("check", good.toString(), nope, "--format", "json", "--only", "tanh*");
        assertEquals(2, json.exit(), json.err());
        JsonNode report = new ObjectMapper().readTree(json.out());
        assertEquals(2, report.get("summary").get("total").asInt(), json.out());
        assertEquals(1, report.get("summary").get("invalid").asInt(), json.out());
        JsonNode missing = report.get("checks").get(0);
        assertEquals(nope, missing.get("name").asText(), json.out());
        assertEquals("invalid", missing.get("status").asText(), json.out());
        assertTrue(missing.toString().contains("no such file or directory"), json.out());

        Cli junit = Cli.run("check", good.toString(), nope, "--format", "junit");
        assertEquals(2, junit.exit());
        assertTrue(junit.out().matches("(?s).*<testcase [^>]*name=\"" + java.util.regex.Pattern.quote(nope)
                + "\"[^>]*>\\s*<error .*no such file or directory.*"), junit.out());
        Cli github = Cli.run("check", good.toString(), nope, "--format", "github");
        assertEquals(2, github.exit());
        assertTrue(github.out().matches("(?s)::error file=[^,]*nope.yaml,line=1,col=1,.*no such file or directory.*"),
                github.out());
        Cli html = Cli.run("check", good.toString(), nope, "--format", "html");
        assertEquals(2, html.exit());
        assertTrue(html.out().contains("no such file or directory"), html.out());
        Cli table = Cli.run("check", good.toString(), nope);
        assertEquals(2, table.exit());
        assertTrue(table.out().contains("1 passed") && table.out().contains("1 invalid"), table.out());
    }

    @Test
    void noSpecsFoundIsAUsageError() {
        Cli r = Cli.run("check", dir.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("no specs found"), r.err());
    }

    @Test
    void onlySelectsByNameAndFailFastStops() throws IOException {
        write("two.yaml", TANH + "---\nname: sig\nop: sigmoid\ninputs:\n  x: {shape: [3]}\n");
        Cli only = Cli.run("check", dir.toString(), "--only", "si*");
        assertEquals(0, only.exit());
        assertTrue(only.out().contains("sig") && !only.out().contains("tanh-ok"), only.out());

        write("three.yaml", "name: a-xpass\n" + TANH.substring(TANH.indexOf("op:"))
                + "expect: fail\nreason: r\n");
        Cli ff = Cli.run("check", dir.resolve("three.yaml").toString(), dir.resolve("two.yaml").toString(),
                "--fail-fast");
        assertEquals(1, ff.exit());
        assertTrue(ff.out().contains("1 check:"), "stopped after the first unexpected result: " + ff.out());
    }

    @Test
    void checkingOptionsOverrideEverySpec() throws IOException {
        write("tanh.yaml", TANH);
        Cli order2 = Cli.run("check", dir.toString(), "--order", "2");
        assertEquals(3, order2.exit(), "SameDiff cannot differentiate tanh's backward: " + order2.out());
        assertTrue(order2.out().contains("order 2: the double backward of tanh failed"), order2.out());

        Cli sampled = Cli.run("check", dir.toString(), "--stencil", "five-point", "--max-elements", "2",
                "--nondet-tol", "1e-12", "--mode", "full", "--format", "json");
        assertEquals(0, sampled.exit(), sampled.err());
        JsonNode block = new ObjectMapper().readTree(sampled.out()).at("/checks/0/gradients/0");
        assertEquals(2, block.at("/sampled/input_elements").asInt(), block.toString());
        assertEquals(4 * 2 + 2, block.get("evaluations").asInt(), "five-point: 4 forwards per sampled element");

        Cli compressed = Cli.run("check", dir.toString(), "--threads", "2", "--format", "json");
        Cli dense = Cli.run("check", dir.toString(), "--no-compress", "--threads", "1", "--format", "json");
        JsonNode c = new ObjectMapper().readTree(compressed.out()).at("/checks/0/gradients/0");
        JsonNode d = new ObjectMapper().readTree(dense.out()).at("/checks/0/gradients/0");
        assertEquals("pass", c.get("verdict").asText(), compressed.out());
        assertEquals("pass", d.get("verdict").asText(), dense.out());
        assertTrue(c.get("evaluations").asInt() < d.get("evaluations").asInt(), "compressed by default, dense with"
                + " --no-compress: " + c.get("evaluations") + " against " + d.get("evaluations"));

        Cli fast = Cli.run("check", dir.toString(), "--mode", "fast", "--format", "json");
        assertEquals("fast", new ObjectMapper().readTree(fast.out()).at("/checks/0/gradients/0/kind").asText());

        write("relu.yaml", "name: relu0\nop: relu\ninputs:\n  x: {shape: [2], init: {values: [0.0, 1.0]}}\n");
        Cli resample = Cli.run("check", dir.resolve("relu.yaml").toString(), "--resample", "--format", "json");
        assertTrue(resample.out().contains("resample: true has no effect"), resample.out());

        for (String[] bad : new String[][] {{"--stencil", "fivepoint"}, {"--order", "3"}, {"--max-elements", "0"},
                {"--nondet-tol", "-1"}, {"--mode", "exhaustive"}, {"--threads", "0"}, {"--threads", "65"}}) {
            Cli r = Cli.run("check", dir.toString(), bad[0], bad[1]);
            assertEquals(2, r.exit(), String.join(" ", bad));
            assertTrue(r.err().contains(bad[0]) || r.err().contains(bad[1]), r.err());
            assertFalse(r.err().contains("Exception"), "a usage error, not a stack trace: " + r.err());
        }
    }

    @Test
    void skipLeavesSpecsOutAndQuietShowsOnlyWhatSetTheExitCode() throws IOException {
        write("two.yaml", TANH + "---\nname: sig\nop: sigmoid\ninputs:\n  x: {shape: [3]}\n");
        Cli skip = Cli.run("check", dir.toString(), "--skip", "si*");
        assertEquals(0, skip.exit());
        assertTrue(!skip.out().contains("sig ") && skip.out().contains("tanh-ok"), skip.out());
        Cli none = Cli.run("check", dir.toString(), "--skip", "*two.yaml");
        assertEquals(0, none.exit(), "* stays within one path segment: it matches no whole path here");
        Cli all = Cli.run("check", dir.toString(), "--skip", "**/two.yaml");
        assertEquals(2, all.exit(), "everything skipped: nothing checked is a usage error");
        assertTrue(all.err().contains("outside --skip"), all.err());

        write("bad.yaml", "op: tanh\ninputs: {x: {shape: [2], dtype: float65}}\n");
        Cli quiet = Cli.run("check", dir.toString(), "--quiet");
        assertEquals(2, quiet.exit());
        assertFalse(quiet.out().contains("tanh-ok"), "passing checks are left out of a quiet table: " + quiet.out());
        assertTrue(quiet.out().contains("INVALID") && quiet.out().contains("3 checks: 2 passed"), quiet.out());
        Cli json = Cli.run("check", dir.toString(), "--quiet", "--format", "json");
        assertEquals(3, new ObjectMapper().readTree(json.out()).get("checks").size(), "JSON lists every check");
    }

    @Test
    void outputFileGetsTheReportAndStdoutStaysEmpty() throws IOException {
        write("tanh.yaml", TANH);
        Path report = dir.resolve("report.json");
        Cli r = Cli.run("check", dir.resolve("tanh.yaml").toString(), "--format", "json", "--output", report.toString());
        assertEquals(0, r.exit());
        assertEquals("", r.out());
        assertEquals("passed", new ObjectMapper().readTree(report.toFile()).get("checks").get(0).get("status").asText());
        assertTrue(r.err().contains("1 check: 1 passed"), r.err());
    }

    @Test
    void anUnknownFormatIsAUsageErrorListingTheFormats() throws IOException {
        write("tanh.yaml", TANH);
        Cli r = Cli.run("check", dir.toString(), "--format", "xml");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("table, json"), r.err());
    }
}
