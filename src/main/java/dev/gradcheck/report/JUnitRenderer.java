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
 * JUnit XML for CI servers, valid under the Jenkins JUnit schema (junit-10.xsd, the one Jenkins' xUnit plugin and
 * pytest's tests use): one {@code <testsuite>} per spec file, named as a dotted class name, with the run's
 * timestamp and host, one {@code <testcase>} per spec. A mismatch
 * (or an expected failure that passed) is a {@code <failure>}, an operator error or an invalid spec an
 * {@code <error>}, and an expected failure or error is {@code <skipped>} with its reason, so a known bug stays
 * visible without turning the build red. Bodies are the table's detail lines. Layout in docs/report-schema.md.
 */
final class JUnitRenderer implements ReportRenderer {

    @Override
    public void render(List<CheckResult> results, Summary summary, ReportContext ctx, Writer out)
            throws IOException {
        RunDetails run = ctx.run();
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            xml.writeStartDocument("UTF-8", "1.0");
            newline(xml, 0);
            xml.writeStartElement("testsuites");
            xml.writeAttribute("name", "gradcheck " + ctx.toolVersion());
            counts(xml, results, summary.seconds(), false);
            int id = 0;
            for (Map.Entry<String, List<CheckResult>> file : byFile(results, run).entrySet()) {
                newline(xml, 1);
                xml.writeStartElement("testsuite");
                String className = className(file.getKey());
                xml.writeAttribute("name", className);
                counts(xml, file.getValue(), file.getValue().stream().mapToDouble(CheckResult::seconds).sum(), true);
                if (run.startedAt() != null) {
                    xml.writeAttribute("timestamp", Timestamps.junit(run.startedAt()));
                }
                if (run.hostname() != null) {
                    xml.writeAttribute("hostname", run.hostname());
                }
                xml.writeAttribute("id", Integer.toString(id++));
                xml.writeAttribute("file", file.getKey());
                shards(xml, file.getValue(), run);
                for (CheckResult r : file.getValue()) {
                    testcase(xml, className, r);
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

    /** The shards a suite's checks ran in, as a property, so a CI server's page leads to the right job's log. */
    private static void shards(XMLStreamWriter xml, List<CheckResult> results, RunDetails run)
            throws XMLStreamException {
        String shards = results.stream().map(r -> run.origins().of(r).shard()).filter(java.util.Objects::nonNull)
                .distinct().collect(java.util.stream.Collectors.joining(", "));
        if (shards.isEmpty()) {
            return;
        }
        newline(xml, 2);
        xml.writeStartElement("properties");
        newline(xml, 3);
        xml.writeEmptyElement("property");
        xml.writeAttribute("name", "shard");
        xml.writeAttribute("value", shards);
        newline(xml, 2);
        xml.writeEndElement();
    }

    private static void testcase(XMLStreamWriter xml, String className, CheckResult r) throws XMLStreamException {
        newline(xml, 2);
        xml.writeStartElement("testcase");
        xml.writeAttribute("classname", className);
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

    /**
     * The counts; Jenkins' JUnit schema allows {@code skipped} on {@code <testsuite>} only, not on
     * {@code <testsuites>}.
     */
    private static void counts(XMLStreamWriter xml, List<CheckResult> results, double seconds, boolean skipped)
            throws XMLStreamException {
        xml.writeAttribute("tests", Integer.toString(results.size()));
        xml.writeAttribute("failures", count(results, Kind.FAILURE));
        xml.writeAttribute("errors", count(results, Kind.ERROR));
        if (skipped) {
            xml.writeAttribute("skipped", count(results, Kind.SKIPPED));
        }
        xml.writeAttribute("time", seconds(seconds));
    }

    private static String count(List<CheckResult> results, Kind kind) {
        return Long.toString(results.stream().filter(r -> kind(r) == kind).count());
    }

    /**
     * Specs grouped by file, in the order the files first appear; a file is named by its path relative to the
     * project root (from the check's id) where known, else as its location gives it.
     */
    private static Map<String, List<CheckResult>> byFile(List<CheckResult> results, RunDetails run) {
        Map<String, List<CheckResult>> files = new LinkedHashMap<>();
        for (CheckResult r : results) {
            String id = run.origins().of(r).id();
            String file = id == null ? file(r.location()) : id.contains("::") ? id.substring(0, id.indexOf("::")) : id;
            files.computeIfAbsent(file, k -> new java.util.ArrayList<>()).add(r);
        }
        return files;
    }

    /**
     * A spec file as a dotted class name, {@code specs/activations/softmax.yaml} as
     * {@code specs.activations.softmax}: CI servers split a class name at its last dot into package and class, so a
     * path would show as class "yaml". Dots inside a segment become '_'; {@code .} and {@code ..} segments go.
     */
    static String className(String file) {
        String path = file.replace('\\', '/');
        int slash = path.lastIndexOf('/');
        int dot = path.lastIndexOf('.');
        if (dot > slash + 1) {
            path = path.substring(0, dot);
        }
        StringBuilder name = new StringBuilder();
        for (String segment : path.split("/")) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                continue;
            }
            name.append(name.length() == 0 ? "" : ".").append(segment.replace('.', '_'));
        }
        return name.length() == 0 ? file : name.toString();
    }

    /** {@code specs/a.yaml:3:1} → {@code specs/a.yaml}: the location ends in line and column. */
    static String file(String location) {
        int col = location.lastIndexOf(':');
        int line = col <= 0 ? -1 : location.lastIndexOf(':', col - 1);
        return line <= 0 ? location : location.substring(0, line);
    }

    /** Seconds with three decimals; the schema's time pattern has no place for NaN or a sign. */
    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.3f", Double.isFinite(s) && s >= 0 ? s : 0);
    }

    private static void newline(XMLStreamWriter xml, int depth) throws XMLStreamException {
        xml.writeCharacters("\n" + "  ".repeat(depth));
    }
}
