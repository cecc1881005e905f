package dev.gradcheck.report;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * JUnit XML for CI servers: one {@code <testsuite>} per spec file, one {@code <testcase>} per spec. A mismatch
 * (or an expected failure that passed) is a {@code <failure>}, an operator error or an invalid spec an
 * {@code <error>}, and an expected failure or error is {@code <skipped>} with its reason, so a known bug stays
 * visible without turning the build red. Bodies are the table's detail lines. Layout in docs/report-schema.md.
 */
final class JUnitRenderer implements ReportRenderer {

    @Override
    public void render(List<CheckResult> results, Summary summary, ReportContext ctx, Writer out)
            throws IOException {
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            xml.writeStartDocument("UTF-8", "1.0");
            newline(xml, 0);
            xml.writeStartElement("testsuites");
            xml.writeAttribute("name", "gradcheck " + ctx.toolVersion());
            counts(xml, results, summary.seconds());
            for (Map.Entry<String, List<CheckResult>> file : byFile(results).entrySet()) {
                newline(xml, 1);
                xml.writeStartElement("testsuite");
                xml.writeAttribute("name", file.getKey());
                counts(xml, file.getValue(), file.getValue().stream().mapToDouble(CheckResult::seconds).sum());
                for (CheckResult r : file.getValue()) {
                    testcase(xml, file.getKey(), r);
                }
                newline(xml, 1);
                xml.writeEndElement();
            }
            newline(xml, 0);
            xml.writeEndElement();
            xml.writeEndDocument();
            out.write("\n");
            xml.flush();
        } catch (XMLStreamException e) {
            throw new IOException("could not write the JUnit report: " + e.getMessage(), e);
        }
    }

    private static void testcase(XMLStreamWriter xml, String file, CheckResult r) throws XMLStreamException {
        newline(xml, 2);
        xml.writeStartElement("testcase");
        xml.writeAttribute("classname", file);
        xml.writeAttribute("name", r.name());
        xml.writeAttribute("time", seconds(r.seconds()));
        String body = String.join("\n", DetailLines.of(r));
        String first = DetailLines.of(r).stream().findFirst().orElse(r.status().jsonName());
        switch (kind(r)) {
            case FAILURE -> outcome(xml, "failure", r.status().jsonName(), first, body);
            case ERROR -> outcome(xml, "error", r.status().jsonName(), first, body);
            case SKIPPED -> {
                newline(xml, 3);
                xml.writeEmptyElement("skipped");
                xml.writeAttribute("message", first);
            }
            case PASSED -> {
                if (!body.isEmpty()) { // a pass that still has something to say (kinks left out)
                    newline(xml, 3);
                    xml.writeStartElement("system-out");
                    xml.writeCharacters(body);
                    xml.writeEndElement();
                }
            }
        }
        newline(xml, 2);
        xml.writeEndElement();
    }

    private static void outcome(XMLStreamWriter xml, String element, String type, String message, String body)
            throws XMLStreamException {
        newline(xml, 3);
        xml.writeStartElement(element);
        xml.writeAttribute("type", type);
        xml.writeAttribute("message", message);
        xml.writeCharacters(body);
        xml.writeEndElement();
    }

    private enum Kind { PASSED, FAILURE, ERROR, SKIPPED }

    private static Kind kind(CheckResult r) {
        return switch (r.status()) {
            case PASSED -> Kind.PASSED;
            case FAILED, UNEXPECTED_PASS -> Kind.FAILURE;
            case ERROR, INVALID, CRASHED, TIMEOUT -> Kind.ERROR;
            case EXPECTED_FAIL, EXPECTED_ERROR, SKIPPED -> Kind.SKIPPED;
        };
    }

    private static void counts(XMLStreamWriter xml, List<CheckResult> results, double seconds)
            throws XMLStreamException {
        xml.writeAttribute("tests", Integer.toString(results.size()));
        xml.writeAttribute("failures", count(results, Kind.FAILURE));
        xml.writeAttribute("errors", count(results, Kind.ERROR));
        xml.writeAttribute("skipped", count(results, Kind.SKIPPED));
        xml.writeAttribute("time", seconds(seconds));
    }

    private static String count(List<CheckResult> results, Kind kind) {
        return Long.toString(results.stream().filter(r -> kind(r) == kind).count());
    }

    /** Specs grouped by file, in the order the files first appear. */
    private static Map<String, List<CheckResult>> byFile(List<CheckResult> results) {
        Map<String, List<CheckResult>> files = new LinkedHashMap<>();
        for (CheckResult r : results) {
            files.computeIfAbsent(file(r.location()), k -> new java.util.ArrayList<>()).add(r);
        }
        return files;
    }

    /** {@code specs/a.yaml:3:1} → {@code specs/a.yaml}: the location ends in line and column. */
    static String file(String location) {
        int col = location.lastIndexOf(':');
        int line = col <= 0 ? -1 : location.lastIndexOf(':', col - 1);
        return line <= 0 ? location : location.substring(0, line);
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.3f", s);
    }

    private static void newline(XMLStreamWriter xml, int depth) throws XMLStreamException {
        xml.writeCharacters("\n" + "  ".repeat(depth));
    }
}
