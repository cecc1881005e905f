package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --format github}: one annotation per unexpected result, escaped as GitHub's runner reads commands. */
class GithubReportTest {

    private static String render(List<CheckResult> results, ReportContext ctx) throws IOException {
        StringWriter out = new StringWriter();
        ReportFormat.GITHUB.renderer().render(results, Summary.of(results, 1, ExitCode.of(results)), ctx, out);
        return out.toString();
    }

    @Test
    void oneErrorPerUnexpectedResultAtItsSpecsFileLineAndColumn() throws IOException {
        String out = ReportGoldenTest.render(ReportFormat.GITHUB, false);
        List<String> errors = out.lines().filter(l -> l.startsWith("::error ")).toList();
        List<CheckResult> unexpected = SampleResults.all().stream().filter(r -> r.status().needsAttention()).toList();
        assertEquals(unexpected.size(), errors.size(), out);
        for (int i = 0; i < errors.size(); i++) {
            SpecPlace place = SpecPlace.of(unexpected.get(i).location());
            assertTrue(errors.get(i).startsWith("::error file=" + place.file() + ",line=" + place.line() + ",col="
                    + place.col() + ",title=gradcheck "), errors.get(i));
        }
        assertTrue(out.endsWith("\n15 checks: 3 passed, 4 failed, 1 expected failure, 1 unexpected pass, 1 error, 1"
                + " expected error, 1 invalid, 1 crashed, 1 timeout, 1 skipped (4.21 s)\n"), out);
        assertFalse(out.contains("tanh-basic"), "passes and skips are not annotated");
    }

    /**
     * A name or message cannot end a property early, start a second command or colour the log: ',' and ':' in a
     * property, '%' and line ends anywhere, are percent-escaped; ESC is a visible escape.
     */
    @Test
    void namesAndMessagesAreEscapedAsWorkflowCommandsRequire() throws IOException {
        CheckResult r = new CheckResult("a,b:c%d\u001b[31m", "specs/x,y.yaml:4:2", "tanh", "cpu", "float64",
                Status.ERROR, "pass", null, "100% wrong\n::error::injected", List.of(), null, 1e-6, 0.1);
        String out = render(List.of(r), ReportContext.plain("t"));
        String line = out.lines().findFirst().orElseThrow();
        assertEquals("::error file=specs/x%2Cy.yaml,line=4,col=2,title=gradcheck ERROR a%2Cb%3Ac%25d\\u001B[31m"
                + "::100%25 wrong%0A::error::injected", line);
        assertEquals(2, out.lines().count(), "one annotation and the summary line: " + out);
        assertFalse(out.contains("\u001b"));
    }

    @Test
    void anInterruptedRunSaysSoInAnAnnotation() throws IOException {
        String out = render(List.of(), ReportContext.plain("t").interrupted(true));
        assertTrue(out.startsWith("::error title=gradcheck interrupted::the run was interrupted by a signal"), out);
    }

    @Test
    void aLocationWithoutLineAndColumnNamesTheFileAlone() throws IOException {
        CheckResult r = new CheckResult("n", "specs/odd", "", "cpu", "", Status.INVALID, "pass", null, "unreadable",
                List.of(), null, 1e-6, 0);
        assertTrue(render(List.of(r), ReportContext.plain("t")).startsWith("::error file=specs/odd,title="));
    }
}
