package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The JUnit XML parses, and its counts and outcomes follow the statuses. */
class JUnitReportTest {

    private static Document parse() throws Exception {
        String xml = ReportGoldenTest.render(ReportFormat.JUNIT, false);
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void countsMatchTheStatuses() throws Exception {
        Element root = parse().getDocumentElement();
        List<CheckResult> all = SampleResults.all();
        assertEquals("testsuites", root.getTagName());
        assertEquals(Integer.toString(all.size()), root.getAttribute("tests"));
        long failures = all.stream().filter(r -> r.status() == Status.FAILED || r.status() == Status.UNEXPECTED_PASS)
                .count();
        long errors = all.stream().filter(r -> r.status() == Status.ERROR || r.status() == Status.INVALID
                || r.status() == Status.CRASHED || r.status() == Status.TIMEOUT).count();
        long skipped = all.stream().filter(r -> r.status() == Status.EXPECTED_FAIL
                || r.status() == Status.EXPECTED_ERROR || r.status() == Status.SKIPPED).count();
        assertEquals(Long.toString(failures), root.getAttribute("failures"));
        assertEquals(Long.toString(errors), root.getAttribute("errors"));
        assertEquals("", root.getAttribute("skipped"), "Jenkins' schema has no skipped on <testsuites>");
        long suitesSkipped = 0;
        NodeList suites = root.getElementsByTagName("testsuite");
        for (int i = 0; i < suites.getLength(); i++) {
            suitesSkipped += Long.parseLong(((Element) suites.item(i)).getAttribute("skipped"));
        }
        assertEquals(skipped, suitesSkipped);
        assertEquals(failures, root.getElementsByTagName("failure").getLength());
        assertEquals(errors, root.getElementsByTagName("error").getLength());
        assertEquals(skipped, root.getElementsByTagName("skipped").getLength());
    }

    @Test
    void aFailureCarriesTheWorstElementAndTestcasesAreGroupedByFile() throws Exception {
        Document doc = parse();
        NodeList cases = doc.getElementsByTagName("testcase");
        Element softmax = null;
        for (int i = 0; i < cases.getLength(); i++) {
            Element c = (Element) cases.item(i);
            if (c.getAttribute("name").equals("softmax-rows")) {
                softmax = c;
            }
        }
        assertEquals("specs.softmax", softmax.getAttribute("classname"), "a dotted class name, from the file path");
        Element failure = (Element) softmax.getElementsByTagName("failure").item(0);
        assertTrue(failure.getTextContent().contains("worst at out[1, 2] / w[0, 3]"), failure.getTextContent());
        assertEquals("specs/cumsum.yaml", JUnitRenderer.file("specs/cumsum.yaml:20:1"));
        NodeList suites = doc.getElementsByTagName("testsuite");
        for (int i = 0; i < suites.getLength(); i++) {
            Element suite = (Element) suites.item(i);
            NodeList own = suite.getElementsByTagName("testcase");
            assertEquals(suite.getAttribute("tests"), Integer.toString(own.getLength()));
        }
    }

    @Test
    void textThatLooksLikeMarkupIsEscaped() throws IOException {
        String xml = ReportGoldenTest.render(ReportFormat.JUNIT, false);
        assertTrue(!xml.contains("<no message>") && xml.startsWith("<?xml"), xml.substring(0, 60));
    }

    /**
     * Issue 27: a report written on a signal is not a green run to a CI server. Its last suite holds one errored
     * test case, counted in the totals, and the report stays valid under Jenkins' schema (JUnitSchemaTest).
     */
    @Test
    void anInterruptedRunEndsWithAnErroredTestCase() throws Exception {
        List<CheckResult> all = SampleResults.all();
        String ended = render(SampleResults.context(false));
        String cut = render(SampleResults.context(false).interrupted(true));
        Element endedRoot = parse(ended).getDocumentElement();
        Element root = parse(cut).getDocumentElement();
        assertEquals(Integer.toString(all.size() + 1), root.getAttribute("tests"));
        assertEquals(Integer.parseInt(endedRoot.getAttribute("errors")) + 1,
                Integer.parseInt(root.getAttribute("errors")));
        assertEquals(endedRoot.getAttribute("failures"), root.getAttribute("failures"));
        NodeList suites = root.getElementsByTagName("testsuite");
        Element last = (Element) suites.item(suites.getLength() - 1);
        assertEquals("gradcheck.run", last.getAttribute("name"));
        assertEquals("1", last.getAttribute("errors"));
        Element testcase = (Element) last.getElementsByTagName("testcase").item(0);
        assertEquals("interrupted", testcase.getAttribute("name"));
        Element error = (Element) testcase.getElementsByTagName("error").item(0);
        assertEquals("interrupted", error.getAttribute("type"));
        assertTrue(error.getAttribute("message").contains("only the " + all.size() + " check(s) that finished"),
                error.getAttribute("message"));
        assertTrue(error.getTextContent().endsWith(", interrupted"), error.getTextContent());
        assertTrue(!ended.contains("gradcheck.run"), "a run that ended has no such suite");
    }

    /** A name with ESC, NUL and a lone surrogate: the report parses, and the name shows its escapes. */
    @Test
    void controlCharactersInANameAreWrittenAsVisibleEscapes() throws Exception {
        CheckResult r = new CheckResult("\u001b[31mred\u0001\u0000\uD800", "a.yaml:1:1", "tanh", "cpu", "float64",
                Status.ERROR, "pass", null, "boom\u001b[0m\uFFFE", List.of(), null, 1e-6, 0.1);
        java.io.StringWriter out = new java.io.StringWriter();
        ReportFormat.JUNIT.renderer().render(List.of(r), dev.gradcheck.result.Summary.of(List.of(r), 0.1, 3),
                ReportContext.plain("t"), out);
        Element testcase = (Element) parse(out.toString()).getElementsByTagName("testcase").item(0);
        assertEquals("\\u001B[31mred\\u0001\\u0000\\uD800", testcase.getAttribute("name"));
        assertEquals("boom\\u001B[0m\\uFFFE", testcase.getElementsByTagName("error").item(0).getTextContent());
    }

    private static String render(ReportContext ctx) throws IOException {
        java.io.StringWriter out = new java.io.StringWriter();
        ReportFormat.JUNIT.renderer().render(SampleResults.all(), SampleResults.summary(), ctx, out);
        return out.toString();
    }

    private static Document parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
