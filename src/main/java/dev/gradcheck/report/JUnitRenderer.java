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
 * visible without turning the build red. Bodies are the table's detail lines. A run cut short by a signal ends
 * with one errored test case that says so. Every attribute and text goes through {@link SafeText#forXml}, so a
 * control character in a name or a message cannot make the document unreadable. Layout in
 * docs/report-schema.md.
 */
final class JUnitRenderer implements ReportRenderer {

    /** The suite and test case that say a run was cut short: {@code gradcheck.run} shows as class "run". */
    static final String INTERRUPTED_SUITE = "gradcheck.run";
    static final String INTERRUPTED_CASE = "interrupted";

    @Override
    public void render(List<CheckResult> results, Summary summary, ReportContext ctx, Writer out)
            throws IOException {
        RunDetails run = ctx.run();
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            xml.writeStartDocument("UTF-8", "1.0");
            newline(xml, 0);
            xml.writeStartElement("testsuites");
            attribute(xml, "name", "gradcheck " + ctx.toolVersion());
            counts(xml, results, summary.seconds(), ctx.interrupted() ? 1 : 0);
            int id = 0;
            for (Map.Entry<String, List<CheckResult>> file : byFile(results, run).entrySet()) {
                suite(xml, file.getKey(), file.getValue(), ctx, id++);
            }
            if (ctx.interrupted()) {
                interrupted(xml, results.size(), SummaryLine.of(summary, ctx), run, id);
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

    /** One spec file's {@code <testsuite>}: its counts, when and where it ran, its shards, its test cases. */
    private static void suite(XMLStreamWriter xml, String file, List<CheckResult> results, ReportContext ctx,
                              int id) throws XMLStreamException {
        RunDetails run = ctx.run();
        newline(xml, 1);
        xml.writeStartElement("testsuite");
        String className = className(file);
        attribute(xml, "name", className);
        counts(xml, results, results.stream().mapToDouble(CheckResult::seconds).sum(), -1);
        runAttributes(xml, run, id);
        attribute(xml, "file", file);
        shards(xml, results, run);
        for (CheckResult r : results) {
            testcase(xml, className, ctx.junitFileLine() ? file : null, r);
        }
        newline(xml, 1);
        xml.writeEndElement();
    }

    private static void runAttributes(XMLStreamWriter xml, RunDetails run, int id) throws XMLStreamException {
        if (run.startedAt() != null) {
            attribute(xml, "timestamp", Timestamps.junit(run.startedAt()));
        }
        if (run.hostname() != null) {
            attribute(xml, "hostname", run.hostname());
        }
        attribute(xml, "id", Integer.toString(id));
    }

    /**
     * A run cut short by a signal ends with a suite of one errored test case, so that a CI server (Jenkins, GitLab,
     * GitHub's reporters all count {@code <error>} as a failed test) shows the run as failed instead of reading
     * the checks that finished as a complete green run. Counted in {@code <testsuites>}' tests and errors.
     */
    private static void interrupted(XMLStreamWriter xml, int finished, String summaryLine, RunDetails run, int id)
            throws XMLStreamException {
        newline(xml, 1);
        xml.writeStartElement("testsuite");
        attribute(xml, "name", INTERRUPTED_SUITE);
        attribute(xml, "tests", "1");
        attribute(xml, "failures", "0");
        attribute(xml, "errors", "1");
        attribute(xml, "skipped", "0");
        attribute(xml, "time", seconds(0));
        runAttributes(xml, run, id);
        newline(xml, 2);
        xml.writeStartElement("testcase");
        attribute(xml, "classname", INTERRUPTED_SUITE);
        attribute(xml, "name", INTERRUPTED_CASE);
        attribute(xml, "time", seconds(0));
        outcome(xml, "error", INTERRUPTED_CASE, "the run was interrupted by a signal: only the " + finished
                + " check(s) that finished are reported, the others did not run", summaryLine);
        newline(xml, 2);
        xml.writeEndElement();
        newline(xml, 1);
        xml.writeEndElement();
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
        attribute(xml, "name", "shard");
        attribute(xml, "value", shards);
        newline(xml, 2);
        xml.writeEndElement();
    }

    /**
     * One spec's {@code <testcase>}; with {@code --junit-file-line} ({@code file} not null), its file (as its
     * suite's) and line, which GitLab and pytest's xunit1 reports put there but junit-10.xsd does not allow. A
     * failure's and an error's message starts with {@code file:line:col} either way.
     */
    private static void testcase(XMLStreamWriter xml, String className, String file, CheckResult r)
            throws XMLStreamException {
        newline(xml, 2);
        xml.writeStartElement("testcase");
        attribute(xml, "classname", className);
        attribute(xml, "name", r.name());
        attribute(xml, "time", seconds(r.seconds()));
        String line = SpecPlace.of(r.location()).line();
        if (file != null) {
            attribute(xml, "file", file);
            if (line != null) {
                attribute(xml, "line", line);
            }
        }
        String body = String.join("\n", DetailLines.of(r));
        String first = DetailLines.headline(r);
        String located = r.location() == null || r.location().isEmpty() ? first : r.location() + ": " + first;
        switch (kind(r)) {
            case FAILURE -> outcome(xml, "failure", r.status().jsonName(), located, body);
            case ERROR -> outcome(xml, "error", r.status().jsonName(), located, body);
            case SKIPPED -> {
                newline(xml, 3);
                xml.writeEmptyElement("skipped");
                attribute(xml, "message", first);
            }
            case PASSED -> {
                if (!body.isEmpty()) { // a pass that still has something to say (kinks left out)
                    newline(xml, 3);
                    xml.writeStartElement("system-out");
                    text(xml, body);
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
        attribute(xml, "type", type);
        attribute(xml, "message", message);
        text(xml, body);
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
     *
     * @param extraErrors for {@code <testsuites>}, the errored test cases beside the checks (the interruption's);
     *                    -1 for a {@code <testsuite>}, which gets {@code skipped} instead
     */
    private static void counts(XMLStreamWriter xml, List<CheckResult> results, double seconds, int extraErrors)
            throws XMLStreamException {
        int extra = Math.max(0, extraErrors);
        attribute(xml, "tests", Integer.toString(results.size() + extra));
        attribute(xml, "failures", Long.toString(count(results, Kind.FAILURE)));
        attribute(xml, "errors", Long.toString(count(results, Kind.ERROR) + extra));
        if (extraErrors < 0) {
            attribute(xml, "skipped", Long.toString(count(results, Kind.SKIPPED)));
        }
        attribute(xml, "time", seconds(seconds));
    }

    private static long count(List<CheckResult> results, Kind kind) {
        return results.stream().filter(r -> kind(r) == kind).count();
    }

    /**
     * Specs grouped by file, in the order the files first appear; a file is named by its path relative to the
     * project root (from the check's id) where known, else as its location gives it.
     */
    private static Map<String, List<CheckResult>> byFile(List<CheckResult> results, RunDetails run) {
        Map<String, List<CheckResult>> files = new LinkedHashMap<>();
        for (CheckResult r : results) {
            String file = SpecPlace.projectFile(r, run);
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
        return SpecPlace.of(location).file();
    }

    /** Seconds with three decimals; the schema's time pattern has no place for NaN or a sign. */
    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.3f", Double.isFinite(s) && s >= 0 ? s : 0);
    }

    /**
     * Every attribute and text goes through these: what XML 1.0 cannot hold (ESC, NUL, U+FFFE, a lone surrogate)
     * would make the whole report unreadable to a CI server, so it is written as a visible escape instead.
     */
    private static void attribute(XMLStreamWriter xml, String name, String value) throws XMLStreamException {
        xml.writeAttribute(name, SafeText.forXml(value));
    }

    private static void text(XMLStreamWriter xml, String text) throws XMLStreamException {
        xml.writeCharacters(SafeText.forXml(text));
    }

    private static void newline(XMLStreamWriter xml, int depth) throws XMLStreamException {
        xml.writeCharacters("\n" + "  ".repeat(depth));
    }
}
