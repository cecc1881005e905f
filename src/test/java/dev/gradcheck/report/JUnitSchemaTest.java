package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.URL;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.xml.sax.SAXException;

/**
 * The JUnit XML is valid under the Jenkins JUnit schema (junit-10.xsd from Jenkins' xUnit plugin, copied with its
 * license into src/test/resources/junit/), for every status and verdict, with and without the run's details, for
 * an empty run and a NaN time; and the validator is not a rubber stamp: the old report's {@code skipped} on
 * {@code <testsuites>} fails it.
 */
class JUnitSchemaTest {

    private static Schema schema;

    @BeforeAll
    static void loadSchema() throws SAXException {
        URL xsd = JUnitSchemaTest.class.getResource("/junit/jenkins-junit-10.xsd");
        schema = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI).newSchema(xsd);
    }

    /** Validated as it is written: by default the report is schema-valid, with nothing taken out first. */
    private static void validate(String xml) throws SAXException, IOException {
        Validator validator = schema.newValidator();
        validator.validate(new StreamSource(new StringReader(xml)));
    }

    /**
     * The report less {@code <testcase>}'s {@code file} and {@code line}, which {@code --junit-file-line} adds:
     * junit-10.xsd does not list them (GitLab reads {@code file}, pytest's xunit1 reports write both).
     */
    static String withoutTestcasePlace(String xml) {
        return xml.replaceAll("(<testcase [^>]*?) file=\"[^\"]*\"", "$1")
                .replaceAll("(<testcase [^>]*?) line=\"\\d+\"", "$1");
    }

    private static String render(List<CheckResult> results, Summary summary, ReportContext ctx) throws IOException {
        StringWriter out = new StringWriter();
        ReportFormat.JUNIT.renderer().render(results, summary, ctx, out);
        return out.toString();
    }

    @Test
    void everyStatusAndVerdictIsValidWithTheRunsDetails() {
        assertDoesNotThrow(() -> validate(render(SampleResults.all(), SampleResults.summary(),
                SampleResults.context(false))));
    }

    @Test
    void anInterruptedRunIsValid() {
        assertDoesNotThrow(() -> validate(render(SampleResults.all(), SampleResults.summary(),
                SampleResults.context(false).interrupted(true))));
        assertDoesNotThrow(() -> validate(render(List.of(), Summary.of(List.of(), 0, 143),
                ReportContext.plain("t").interrupted(true))));
    }

    @Test
    void aReportWithoutRunDetailsIsValidToo() {
        assertDoesNotThrow(() -> validate(render(SampleResults.all(), SampleResults.summary(),
                ReportContext.plain("t"))));
    }

    @Test
    void anEmptyRunAndANanTimeAreValid() throws IOException {
        assertDoesNotThrow(() -> validate(render(List.of(), Summary.of(List.of(), 0, 2), ReportContext.plain("t"))));
        CheckResult nanTime = new CheckResult("t", "a.yaml:1:1", "tanh", "cpu", "float64", Status.PASSED, "pass",
                null, null, List.of(), null, 1e-6, Double.NaN);
        String xml = render(List.of(nanTime), Summary.of(List.of(nanTime), Double.NaN, 0), ReportContext.plain("t"));
        assertDoesNotThrow(() -> validate(xml), xml);
    }

    /** The schema is strict where it matters: what gradcheck wrote before this change does not pass. */
    @Test
    void theSchemaRejectsSkippedOnTestsuitesAndAnUnknownElement() throws IOException {
        String valid = render(SampleResults.all(), SampleResults.summary(), SampleResults.context(false));
        String oldRoot = valid.replaceFirst("<testsuites ", "<testsuites skipped=\"3\" ");
        SAXException skipped = assertThrows(SAXException.class, () -> validate(oldRoot));
        assertTrue(skipped.getMessage().contains("skipped"), skipped.getMessage());
        String unknown = valid.replaceFirst("<skipped ", "<ignored ");
        assertThrows(SAXException.class, () -> validate(unknown));
        String nanTime = valid.replaceFirst("(<testsuite name=\"specs.tanh\"[^>]*?) time=\"[^\"]*\"", "$1 time=\"NaN\"");
        assertTrue(nanTime.contains("time=\"NaN\""), "the replacement happened");
        assertThrows(SAXException.class, () -> validate(nanTime));
    }

    @Test
    void testCasesCarryFileAndLineOnlyWhenAskedAndAreOtherwiseAsTheSchemaSays() throws IOException {
        // the report's <testcase file line> failed xmllint --schema junit-10.xsd on every report (issue 36, item 10)
        String plain = render(SampleResults.all(), SampleResults.summary(), SampleResults.context(false));
        assertFalse(plain.matches("(?s).*<testcase [^>]*(file|line)=.*"), "no file or line on a test case");
        String placed = render(SampleResults.all(), SampleResults.summary(),
                SampleResults.context(false).withJUnitFileLine(true));
        assertTrue(placed.contains("file=\"specs/tanh.yaml\" line=\"1\""), placed);
        assertThrows(SAXException.class, () -> validate(placed), "outside junit-10.xsd, as documented");
        assertEquals(plain, withoutTestcasePlace(placed), "the option adds those two attributes and nothing else");
    }

    @Test
    void classNamesAreDottedPathsWithoutTheExtension() {
        assertEquals("specs.activations.softmax", JUnitRenderer.className("specs/activations/softmax.yaml"));
        assertEquals("specs.conv.conv2d_nhwc", JUnitRenderer.className("specs/conv/conv2d.nhwc.yml"));
        assertEquals("tmp.x", JUnitRenderer.className("/tmp/x.yaml"));
        assertEquals("specs.a", JUnitRenderer.className("../specs/./a.yaml"));
    }
}
