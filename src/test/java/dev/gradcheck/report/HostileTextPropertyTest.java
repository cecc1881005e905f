package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.xml.sax.InputSource;

/**
 * Every report format stays well-formed whatever the text it did not write itself: arbitrary strings (every C0
 * control, DEL and the C1 controls, U+FFFE, U+FFFF, lone and paired surrogates, line and paragraph separators, a
 * bidirectional override, markup characters, strings of thousands of characters) as spec names, locations,
 * operators, dtypes, block names, node descriptions, reasons, messages, captured output, host names, shards and
 * spec ids, through every {@link ReportFormat}, in a run that ended and one that was interrupted. JUnit must parse
 * and stay valid under Jenkins' schema; HTML must hold no character XML cannot and parse as XML once its three
 * void tags are closed; JSON must parse and give back every name exactly; the table, without colour, must hold no
 * control character but its line ends, and with colour no escape sequence but its own.
 */
class HostileTextPropertyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Schema JUNIT_SCHEMA = junitSchema();

    private static Schema junitSchema() {
        try {
            return SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                    .newSchema(HostileTextPropertyTest.class.getResource("/junit/jenkins-junit-10.xsd"));
        } catch (org.xml.sax.SAXException e) {
            throw new IllegalStateException(e);
        }
    }

    @Provide
    Arbitrary<String> hostile() {
        Arbitrary<String> mixed = Arbitraries.strings().withCharRange('\u0000', '\u00A0')
                .withChars('\uFFFE', '\uFFFF', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uD83D', '\uDE00', '\u2028',
                        '\u2029', '\u202E', '\u200B', '\uFEFF', 'é', '<', '>', '&', '"', '\'', ']', '\\')
                .ofMaxLength(60);
        Arbitrary<String> controls = Arbitraries.strings().withCharRange('\u0000', '\u001F').ofMinLength(1)
                .ofMaxLength(8).map(s -> "\u001b[31m" + s + "red");
        Arbitrary<String> longText = Arbitraries.strings().withCharRange('\u0000', '\u00FF').ofMinLength(2_000)
                .ofMaxLength(6_000);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, mixed), net.jqwik.api.Tuple.of(3, controls),
                net.jqwik.api.Tuple.of(1, longText));
    }

    @Property(tries = 200)
    void everyFormatStaysWellFormed(@ForAll("hostile") String name, @ForAll("hostile") String message,
            @ForAll("hostile") String log, @ForAll("hostile") String other, @ForAll boolean interrupted)
            throws Exception {
        List<CheckResult> results = results(name, message, log, other);
        Summary summary = Summary.of(results, 1.5, interrupted ? 143 : 3);
        RunDetails details = new RunDetails(OffsetDateTime.of(2024, 5, 1, 14, 3, 7, 0, ZoneOffset.UTC), other,
                other, 0, false, r -> new RunDetails.CheckOrigin(other + ".yaml::" + r.name(), other), List.of());
        ReportContext plain = new ReportContext(false, "t", false, interrupted, details);

        junit(render(ReportFormat.JUNIT, results, summary, plain));
        github(render(ReportFormat.GITHUB, results, summary, plain));
        html(render(ReportFormat.HTML, results, summary, plain));
        json(render(ReportFormat.JSON, results, summary, plain), results);
        table(render(ReportFormat.TABLE, results, summary, plain), false);
        table(render(ReportFormat.TABLE, results, summary, new ReportContext(true, "t", false, interrupted,
                details, 80)), true);
    }

    /** A check of each outcome whose detail lines quote the text: every place a renderer writes user text. */
    private static List<CheckResult> results(String name, String message, String log, String other) {
        WorstElement worst = new WorstElement(new long[] {0}, new long[] {1}, 1.0, 2.0);
        GradientResult bad = new GradientResult(other, name, CheckKind.JACOBIAN, 1, Verdict.MISMATCH, 1, 1, 1, worst,
                4, 0.1, message, null, null, null);
        GradientResult kink = new GradientResult(name, other, CheckKind.JACOBIAN, 1, Verdict.NONDIFFERENTIABLE, 0, 0,
                0, worst, 4, 0.1, log, null, null, null);
        NodeFinding node = new NodeFinding(1, other, name, other, Status.ERROR, bad, message);
        return List.of(
                new CheckResult(name, other + ":1:1", other, "cpu", other, Status.PASSED, "pass", null, null,
                        List.of(kink), other, 1e-6, 0.1),
                new CheckResult(name, other + ":2:1", "tanh", other, "float64", Status.FAILED, "pass", null, message,
                        List.of(bad), "rtol=" + other, 1e-6, 0.2, List.of(node), null, List.of(name, other)),
                new CheckResult(name, name + ":3:1", "conv2d", "cpu", "float32", Status.ERROR, "pass", null, message,
                        List.of(), null, 1e-6, 0.3).withLog(List.of(log, other, message + "\n" + log)),
                new CheckResult(other, "a.yaml:4:1", name, "cpu", "", Status.EXPECTED_FAIL, "fail", message, null,
                        List.of(), null, 1e-6, 0.4),
                new CheckResult(name, "a.yaml:5:1", "", "", "", Status.INVALID, "pass", null, message, List.of(),
                        null, 0, 0),
                new CheckResult(name, "a.yaml:6:1", "tanh", "cuda", "float64", Status.SKIPPED, "pass", null, log,
                        List.of(), null, 0, 0));
    }

    private static String render(ReportFormat format, List<CheckResult> results, Summary summary, ReportContext ctx)
            throws IOException {
        StringWriter out = new StringWriter();
        format.renderer().render(results, summary, ctx, out);
        return out.toString();
    }

    /** Parsed and valid under Jenkins' schema (whether the run ended or was interrupted: JUnitReportTest). */
    private static void junit(String xml) throws Exception {
        assertNoCharacterXmlForbids(xml);
        JUNIT_SCHEMA.newValidator().validate(new StreamSource(new StringReader(
                JUnitSchemaTest.withoutTestcasePlace(xml))));
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    /**
     * Every line is a workflow command or the summary, with no control character a log viewer could obey; a
     * command's properties hold no unescaped ',' or ':' (the checks' names and files are in them).
     */
    private static void github(String text) {
        assertTrue(text.endsWith("\n"), text);
        for (String line : text.substring(0, text.length() - 1).split("\n", -1)) {
            assertTrue(line.chars().noneMatch(c -> Character.isISOControl(c)), line);
            if (line.startsWith("::error ")) {
                String properties = line.substring("::error ".length(), line.indexOf("::", 2));
                for (String property : properties.split(",")) {
                    assertTrue(property.matches("(file|line|col|title)=[^:]*"), property + " in " + line);
                }
            }
        }
    }

    /** The page is HTML, not XML, but for its doctype and two void tags; closed, it must parse as XML. */
    private static void html(String html) throws Exception {
        assertNoCharacterXmlForbids(html);
        String asXml = html.replace("<!DOCTYPE html>\n", "").replace("<meta charset=\"utf-8\">",
                "<meta charset=\"utf-8\"/>").replace("<br>", "<br/>");
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(asXml)));
    }

    private static void json(String json, List<CheckResult> results) throws IOException {
        assertNoCharacterXmlForbids(json);
        JsonNode checks = JSON.readTree(json).get("checks");
        for (int i = 0; i < results.size(); i++) {
            assertEquals(results.get(i).name(), checks.get(i).get("name").asText(), "the exact name, check " + i);
            assertEquals(results.get(i).log(), JSON.convertValue(checks.get(i).get("log"), List.class));
        }
    }

    /** Only line ends and, with colour, the table's own colour codes: nothing a name could make a terminal do. */
    private static void table(String table, boolean color) {
        String text = color ? table.replaceAll("\u001b\\[(0|3[1-5])m", "") : table;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            assertFalse(c != '\n' && (Character.isISOControl(c) || isLoneSurrogate(text, i)
                    || Character.getType(c) == Character.FORMAT || c == '\u2028' || c == '\u2029'),
                    () -> String.format("U+%04X at %d in the table", (int) c, text.indexOf(c)));
        }
        assertTrue(table.endsWith("\n"));
    }

    /** What XML 1.0 cannot hold, nor a terminal shown the file should obey: C0 but tab and line ends, C1, DEL. */
    private static void assertNoCharacterXmlForbids(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean forbidden = (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7F && c <= 0x9F)
                    || c == '\uFFFE' || c == '\uFFFF' || isLoneSurrogate(text, i);
            int at = i;
            assertFalse(forbidden, () -> String.format("U+%04X at %d: %s", (int) c, at,
                    text.substring(Math.max(0, at - 40), Math.min(text.length(), at + 20))));
        }
    }

    private static boolean isLoneSurrogate(String text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
        }
        return Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
    }
}
