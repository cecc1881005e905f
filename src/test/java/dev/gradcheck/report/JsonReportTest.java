package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reads the JSON report back: the schema and the content are asserted, not only the bytes. */
class JsonReportTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void headerNamesSchemaAndTool() throws IOException {
        JsonNode root = parse(SampleResults.all(), SampleResults.summary());
        assertEquals(List.of("schema", "schema_version", "tool", "run", "summary", "checks"), fieldNames(root));
        assertEquals(List.of("started_at", "hostname", "shard", "merged_from"), fieldNames(root.get("run")));
        assertEquals("2024-05-01T14:03:07+02:00", root.at("/run/started_at").asText());
        assertEquals("ci-runner-1", root.at("/run/hostname").asText());
        assertEquals("2/3", root.at("/run/shard").asText());
        assertEquals("gradcheck-report", root.get("schema").asText());
        assertEquals(1, root.get("schema_version").asInt());
        assertEquals("gradcheck", root.at("/tool/name").asText());
        assertEquals(SampleResults.VERSION, root.at("/tool/version").asText());
    }

    @Test
    void summaryCountsMatchTheRecords() throws IOException {
        List<CheckResult> results = SampleResults.all();
        JsonNode summary = parse(results, SampleResults.summary()).get("summary");
        assertEquals(List.of("total", "passed", "failed", "expected_fail", "unexpected_pass", "error",
                "expected_error", "invalid", "crashed", "timeout", "skipped", "exit_code", "interrupted", "seconds",
                "not_run", "stopped_early"), fieldNames(summary));
        assertEquals(0, summary.get("not_run").asInt());
        assertFalse(summary.get("stopped_early").asBoolean());
        assertEquals(results.size(), summary.get("total").asInt());
        int sum = 0;
        for (Status s : Status.values()) {
            long expected = results.stream().filter(r -> r.status() == s).count();
            assertEquals(expected, summary.get(s.jsonName()).asLong(), s.jsonName());
            sum += summary.get(s.jsonName()).asInt();
        }
        assertEquals(results.size(), sum, "every check is counted exactly once");
        assertEquals(3, summary.get("exit_code").asInt(), "an ERROR (3) outranks FAILED (1) and INVALID (2)");
        assertEquals(SampleResults.BATCH_SECONDS, summary.get("seconds").asDouble());
    }

    @Test
    void everyCheckAndGradientIsWritten() throws IOException {
        List<CheckResult> results = SampleResults.all();
        JsonNode checks = parse(results, SampleResults.summary()).get("checks");
        assertEquals(results.size(), checks.size());
        for (int i = 0; i < results.size(); i++) {
            CheckResult r = results.get(i);
            JsonNode c = checks.get(i);
            assertEquals(List.of("name", "location", "op", "backend", "dtype", "status", "unexpected", "expected",
                    "reason", "message", "tolerance", "delta", "seconds", "worst", "gradients", "nodes",
                    "cross_backend", "id", "shard", "defaulted_attributes", "log", "calls"), fieldNames(c));
            assertEquals(r.status().needsAttention(), c.get("unexpected").asBoolean(), r.name());
            assertEquals(JUnitRenderer.file(r.location()) + "::" + r.name(), c.get("id").asText());
            assertEquals(SampleResults.SHARD, c.get("shard").asText());
            assertEquals(r.name(), c.get("name").asText());
            assertEquals(r.location(), c.get("location").asText());
            assertEquals(r.status().jsonName(), c.get("status").asText());
            assertEquals(r.gradients().size(), c.get("gradients").size());
            assertEquals(r.nodes().size(), c.get("nodes").size());
            for (int j = 0; j < r.gradients().size(); j++) {
                GradientResult g = r.gradients().get(j);
                JsonNode gj = c.get("gradients").get(j);
                assertEquals(g.verdict().reportName(), gj.get("verdict").asText());
                assertEquals(g.evaluations(), gj.get("evaluations").asLong());
                assertEquals(g.kind().reportName(), gj.get("kind").asText());
                assertEquals(g.order(), gj.get("order").asInt());
                if (g.worst() == null) {
                    assertTrue(gj.get("worst").isNull());
                } else {
                    assertEquals(g.worst().outputIndex().length, gj.at("/worst/output_index").size());
                }
                assertEquals(g.note() == null, gj.get("note").isNull());
                assertEquals(g.sampling() == null, gj.get("sampled").isNull());
            }
        }
    }

    @Test
    void nonFiniteNumbersAreStringsAndNullsStayNull() throws IOException {
        JsonNode checks = parse(SampleResults.all(), SampleResults.summary()).get("checks");
        JsonNode nan = find(checks, "log-near-zero").at("/gradients/0");
        assertEquals("NaN", nan.get("max_abs_error").textValue());
        assertEquals("Infinity", nan.get("max_rel_error").textValue());
        assertEquals("NaN", nan.at("/worst/analytic").textValue());
        assertEquals(1.0e6, nan.at("/worst/numerical").doubleValue());

        JsonNode invalid = find(checks, "bad");
        assertTrue(invalid.get("tolerance").isNull());
        assertTrue(invalid.get("reason").isNull());
        assertTrue(invalid.get("gradients").isArray() && invalid.get("gradients").isEmpty());
        assertEquals(List.of(0L, 1L), longs(find(checks, "mlp-clip").at("/gradients/0/worst/output_index")));
        assertTrue(find(checks, "mlp-clip").at("/gradients/0/worst/input_index").isEmpty(), "scalar index");
    }

    @Test
    void emptyBatchIsAValidReport() throws IOException {
        JsonNode root = parse(List.of(), Summary.of(List.of(), 0.0, 0));
        assertEquals(0, root.at("/summary/total").asInt());
        assertEquals(0, root.at("/summary/exit_code").asInt());
        assertTrue(root.get("checks").isArray() && root.get("checks").isEmpty());
    }

    @Test
    void endsWithOneNewline() throws IOException {
        String json = ReportGoldenTest.render(ReportFormat.JSON, false);
        assertTrue(json.endsWith("}\n") && !json.endsWith("\n\n"));
        assertTrue(!json.contains("\r"), "\\n line ends on every platform");
    }

    private static JsonNode parse(List<CheckResult> results, Summary summary) throws IOException {
        StringWriter out = new StringWriter();
        new JsonRenderer().render(results, summary, SampleResults.context(false), out);
        return MAPPER.readTree(out.toString());
    }

    private static JsonNode find(JsonNode checks, String name) {
        for (JsonNode c : checks) {
            if (c.get("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no check named " + name);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    private static List<Long> longs(JsonNode array) {
        List<Long> values = new ArrayList<>();
        array.forEach(n -> values.add(n.asLong()));
        return values;
    }

    /**
     * Issue 26: a check's {@code worst} is the row the table shows (the worst block), with its worst entry's place
     * and values and the block's errors, so listing failures with their worst element needs no search in jq.
     */
    @Test
    void eachCheckCarriesItsWorstBlockAndEntry() throws IOException {
        JsonNode checks = new ObjectMapper().readTree(ReportGoldenTest.render(ReportFormat.JSON, false)).get("checks");
        JsonNode softmax = checks.get(2);
        assertEquals("softmax-rows", softmax.get("name").asText());
        JsonNode worst = softmax.get("worst");
        assertEquals("d0/dw", worst.get("block").asText());
        assertEquals("mismatch", worst.get("verdict").asText());
        assertEquals("[1,2]", worst.get("output_index").toString());
        assertEquals("[0,3]", worst.get("input_index").toString());
        assertEquals("out[1, 2] / w[0, 3]", worst.get("element").asText());
        assertEquals(0.5, worst.get("analytic").asDouble());
        assertEquals(0.25, worst.get("numerical").asDouble());
        assertEquals(0.2, worst.get("max_rel_error").asDouble());
        assertTrue(softmax.get("unexpected").asBoolean());
        JsonNode error = checks.get(8);
        assertEquals("conv2d-nchw", error.get("name").asText());
        assertTrue(error.get("worst").isNull(), "an error compared nothing");
        JsonNode sanity = checks.get(5).get("worst");
        assertEquals("determinism x", sanity.get("block").asText(), "the failing row with the highest score");
        assertTrue(sanity.get("analytic").isNull() && sanity.get("output_index").isNull(), sanity.toString());
        assertFalse(checks.get(6).get("unexpected").asBoolean(), "an expected failure is not unexpected");
    }
}
