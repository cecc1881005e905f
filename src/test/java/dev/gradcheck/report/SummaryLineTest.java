package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryLineTest {

    @Test
    void passedAndFailedAlwaysShownOthersOnlyWhenNonZero() {
        assertEquals("3 checks: 3 passed, 0 failed (0.50 s)", SummaryLine.of(summary(0.5, Status.PASSED, 3)));
    }

    @Test
    void categoriesInStatusOrderWithPlurals() {
        List<CheckResult> results = new ArrayList<>();
        results.addAll(of(Status.PASSED, 30));
        results.addAll(of(Status.EXPECTED_FAIL, 1));
        results.addAll(of(Status.FAILED, 1));
        results.addAll(of(Status.ERROR, 2));
        results.addAll(of(Status.INVALID, 2));
        assertEquals("36 checks: 30 passed, 1 failed, 1 expected failure, 2 errors, 2 invalid (4.21 s)",
                SummaryLine.of(Summary.of(results, 4.2149, ExitCode.of(results))));
    }

    @Test
    void singleCheckIsSingular() {
        assertEquals("1 check: 0 passed, 0 failed, 1 unexpected pass (0.00 s)",
                SummaryLine.of(summary(0.001, Status.UNEXPECTED_PASS, 1)));
    }

    @Test
    void sampleBatch() {
        assertEquals("15 checks: 3 passed, 4 failed, 1 expected failure, 1 unexpected pass, 1 error, "
                + "1 expected error, 1 invalid, 1 crashed, 1 timeout, 1 skipped (4.21 s)",
                SummaryLine.of(SampleResults.summary()));
    }

    @Test
    void noChecks() {
        assertEquals("no specs found", SummaryLine.of(Summary.of(List.of(), 0, 0)));
    }

    @Test
    void anInterruptedRunSaysSoAndNeverClaimsThereWereNoSpecs() {
        assertEquals("3 checks: 3 passed, 0 failed (0.50 s), interrupted",
                SummaryLine.of(summary(0.5, Status.PASSED, 3), true));
        assertEquals("interrupted before any check finished", SummaryLine.of(Summary.of(List.of(), 0, 0), true));
        assertEquals("no specs found", SummaryLine.of(Summary.of(List.of(), 0, 0), false));
    }

    @Test
    void anInterruptedTableEndsWithTheInterruptedLine() throws java.io.IOException {
        java.io.StringWriter out = new java.io.StringWriter();
        new TableRenderer().render(List.of(), Summary.of(List.of(), 0, 0), new ReportContext(false, "t", false, true),
                out);
        assertEquals("interrupted before any check finished\n", out.toString());
    }

    private static Summary summary(double seconds, Status status, int n) {
        return Summary.of(of(status, n), seconds, ExitCode.of(of(status, n)));
    }

    private static List<CheckResult> of(Status status, int n) {
        List<CheckResult> results = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            results.add(new CheckResult("s" + i, "f.yaml:1:1", "tanh", "cpu", "float64", status, "pass", null, null,
                    List.of(), "max_relative_error=1e-06", 1e-6, 0.01));
        }
        return results;
    }
}
