package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import dev.gradcheck.result.Verdict;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A JSON report read back ({@code gradcheck merge}) is the same report: rendering it again gives the same bytes. */
class JsonReportReaderTest {

    private static JsonNode tree(String json) throws Exception {
        return JsonReportReader.tree(new StringReader(json));
    }

    @Test
    void everyFieldSurvivesARoundTrip() throws Exception {
        String original = ReportGoldenTest.render(ReportFormat.JSON, false);
        JsonReportReader.Read read = JsonReportReader.read(tree(original), "shard-2.json");

        Map<CheckResult, RunDetails.CheckOrigin> origins = new IdentityHashMap<>();
        for (int i = 0; i < read.results().size(); i++) {
            origins.put(read.results().get(i), read.origins().get(i));
        }
        RunDetails details = new RunDetails(read.source().startedAt(), read.source().hostname(),
                read.source().shard(), read.notRun(), read.stoppedEarly(), origins::get, List.of());
        StringWriter again = new StringWriter();
        ReportFormat.JSON.renderer().render(read.results(), Summary.of(read.results(), read.source().seconds(),
                read.source().exitCode()), new ReportContext(false, read.toolVersion()).with(details), again);
        assertEquals(original, again.toString());
        assertEquals(SampleResults.all().size(), read.source().checks());
        assertEquals("shard-2.json", read.source().file());
    }

    @Test
    void theEnumsReadBackByTheirReportNames() {
        for (Status s : Status.values()) {
            assertEquals(s, Status.fromJsonName(s.jsonName()).orElseThrow());
        }
        for (Verdict v : Verdict.values()) {
            assertEquals(v, Verdict.fromReportName(v.reportName()).orElseThrow());
        }
        for (CheckKind k : CheckKind.values()) {
            assertEquals(k, CheckKind.fromReportName(k.reportName()).orElseThrow());
        }
        assertTrue(Status.fromJsonName("PASSED").isEmpty(), "the report's spelling only");
    }

    @Test
    void whatCannotBeReadIsNamed() throws Exception {
        String original = ReportGoldenTest.render(ReportFormat.JSON, false);
        JsonReportReader.FormatException notReport = assertThrows(JsonReportReader.FormatException.class,
                () -> JsonReportReader.read(tree("{\"schema\": \"something-else\"}"), "x.json"));
        assertTrue(notReport.getMessage().contains("not a gradcheck JSON report"), notReport.getMessage());

        String badStatus = original.replaceFirst("\"status\": \"failed\"", "\"status\": \"exploded\"");
        JsonReportReader.FormatException status = assertThrows(JsonReportReader.FormatException.class,
                () -> JsonReportReader.read(tree(badStatus), "x.json"));
        assertEquals("checks[2].status: unknown value 'exploded'", status.getMessage());

        String badNumber = original.replaceFirst("(\"gradients\": \\[\\s*\\{[^{}]*?\"max_abs_error\": )[^,]*,",
                "$1\"lots\",");
        JsonReportReader.FormatException number = assertThrows(JsonReportReader.FormatException.class,
                () -> JsonReportReader.read(tree(badNumber), "x.json"));
        assertEquals("checks[0].gradients[0].max_abs_error: expected a number", number.getMessage());

        assertThrows(JsonReportReader.FormatException.class, () -> tree("{\"schema\": "));
        String newer = original.replace("\"schema_version\": 1", "\"schema_version\": 2");
        assertEquals(2, JsonReportReader.schemaVersion(tree(newer)));
        assertThrows(JsonReportReader.FormatException.class, () -> JsonReportReader.read(tree(newer), "x.json"));
    }

    @Test
    void aReportOfAnOlderGradcheckWithoutRunOrIdsIsRead() throws Exception {
        JsonNode old = tree("""
                {"schema": "gradcheck-report", "schema_version": 1, "tool": {"name": "gradcheck", "version": "0.0.9"},
                 "summary": {"total": 1, "exit_code": 0, "interrupted": false, "seconds": 1.5},
                 "checks": [{"name": "t", "location": "a.yaml:1:1", "op": "tanh", "backend": "cpu",
                   "dtype": "float64", "status": "passed", "expected": "pass", "reason": null, "message": null,
                   "tolerance": null, "delta": 1.0E-6, "seconds": 0.5, "gradients": [], "nodes": [],
                   "cross_backend": null}]}
                """);
        JsonReportReader.Read read = JsonReportReader.read(old, "old.json");
        assertEquals(1, read.results().size());
        assertEquals(new RunDetails.CheckOrigin(null, null), read.origins().get(0));
        assertEquals(Status.PASSED, read.results().get(0).status());
    }
}
