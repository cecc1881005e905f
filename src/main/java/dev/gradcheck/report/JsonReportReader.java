package dev.gradcheck.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.result.BackendDifference;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.Calls;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Sampling;
import dev.gradcheck.result.EntryRegion;
import dev.gradcheck.result.EntrySet;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A JSON report read back into result records ({@code gradcheck merge}): the counterpart of {@link JsonRenderer},
 * field by field as docs/report-schema.md describes them. Fields this version does not know are ignored, as the
 * schema's version policy asks; a field it needs that is missing or of the wrong type is an error that names it.
 */
public final class JsonReportReader {

    /**
     * Limits on what is parsed, far above any report gradcheck writes (nested about ten deep, numbers of at most 24
     * characters; the string limit is Jackson's own default, kept for a long message or captured output line) and
     * low enough that a hostile file is refused at once, where it is. Set here rather than left to Jackson's
     * defaults, which have changed between versions; docs/guarantees.md and docs/ci.md state them.
     */
    static final int MAX_NESTING = 100;

    static final int MAX_NUMBER_LENGTH = 100;

    static final int MAX_STRING_LENGTH = 20_000_000;

    /** The most seconds a run or a check is read as taking (31 years): more, or less than 0, is no time. */
    static final double MAX_SECONDS = 1e9;

    // a key twice is refused, not read as its last value: no report gradcheck writes has one
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING)
                    .maxNumberLength(MAX_NUMBER_LENGTH).maxStringLength(MAX_STRING_LENGTH).build())
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build());

    /**
     * One report as read.
     *
     * @param schemaVersion its {@code schema_version}
     * @param toolVersion   the gradcheck that wrote it, or null
     * @param results       its checks, in its order
     * @param origins       each check's id and shard, index by index (the report's own shard where a check names none)
     * @param source        what a merged report says about it
     * @param interrupted   its {@code summary.interrupted}
     * @param notRun        its {@code summary.not_run} (0 when absent)
     * @param stoppedEarly  its {@code summary.stopped_early}
     */
    public record Read(int schemaVersion, String toolVersion, List<CheckResult> results,
                       List<RunDetails.CheckOrigin> origins, RunDetails.Source source, boolean interrupted,
                       int notRun, boolean stoppedEarly) {}

    /** A report that cannot be read: the message names the field (e.g. {@code checks[3].status}) and why. */
    public static class FormatException extends Exception {
        public FormatException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * JSON that does not claim to be a gradcheck report at all: merge passes over such a file found in a directory
     * (a durations file beside the reports), where every other FormatException is a damaged report it names.
     */
    public static final class NotAReportException extends FormatException {
        public NotAReportException(String message) {
            super(message);
        }
    }

    private JsonReportReader() {}

    /**
     * The schema version a document claims, read before anything else (to refuse mixing versions before reading
     * checks whose layout may differ).
     *
     * @throws FormatException when it is not JSON or not a gradcheck report
     */
    public static int schemaVersion(JsonNode root) throws FormatException {
        if (root == null || !root.isObject() || !JsonRenderer.SCHEMA.equals(root.path("schema").asText(null))) {
            throw new NotAReportException("not a gradcheck JSON report (no \"schema\": \"" + JsonRenderer.SCHEMA
                    + "\"); write one with check --format json");
        }
        JsonNode version = root.path("schema_version");
        if (!version.isInt()) {
            throw new FormatException("schema_version is missing or not an integer");
        }
        return version.asInt();
    }

    /**
     * The one JSON document of a report file.
     *
     * @throws FormatException when the text is not JSON, goes past the parsing limits, or holds more than one
     *                         document (two reports in one file would otherwise merge as the first alone)
     */
    public static JsonNode tree(Reader in) throws IOException, FormatException {
        JsonParser parser = JSON.createParser(in);
        try {
            JsonNode root = JSON.readTree(parser);
            if (parser.nextToken() != null) {
                throw new FormatException("more JSON after the report " + at(parser.currentTokenLocation())
                        + ": a report file holds one JSON document; this one was not merged");
            }
            return root;
        } catch (StreamConstraintsException e) {
            // Jackson names the limit by its API method, which says nothing to whoever wrote the file
            throw new FormatException("refused " + at(parser.currentLocation()) + ": "
                    + e.getOriginalMessage().replaceAll(", from `[^`]*`\\)", ")")
                    + "; no gradcheck report comes near this limit");
        } catch (JsonProcessingException e) {
            // not every exception carries a location (the limits' do not): the parser still knows where it is
            throw new FormatException("not JSON: " + e.getOriginalMessage() + " "
                    + at(e.getLocation() != null ? e.getLocation() : parser.currentLocation()));
        }
    }

    private static String at(JsonLocation where) {
        return "at line " + where.getLineNr() + ", column " + where.getColumnNr();
    }

    /**
     * @param file what {@link RunDetails.Source#file()} calls it
     * @throws FormatException naming the first field that cannot be read
     */
    public static Read read(JsonNode root, String file) throws FormatException {
        int version = schemaVersion(root);
        if (version != JsonRenderer.SCHEMA_VERSION) {
            throw new FormatException("schema_version " + version + " is not the " + JsonRenderer.SCHEMA_VERSION
                    + " this gradcheck reads");
        }
        JsonNode run = root.path("run");
        String shard = textOrNull(run, "shard", "run");
        JsonNode summary = object(root, "summary", "summary");
        List<CheckResult> results = new ArrayList<>();
        List<RunDetails.CheckOrigin> origins = new ArrayList<>();
        JsonNode checks = root.path("checks");
        if (!checks.isArray()) {
            throw new FormatException("checks: expected an array");
        }
        for (int i = 0; i < checks.size(); i++) {
            String at = "checks[" + i + "]";
            JsonNode c = checks.get(i);
            results.add(check(c, at));
            String checkShard = textOrNull(c, "shard", at);
            origins.add(new RunDetails.CheckOrigin(textOrNull(c, "id", at),
                    checkShard != null ? checkShard : shard));
        }
        RunDetails.Source source = new RunDetails.Source(file, shard,
                Timestamps.parse(textOrNull(run, "started_at", "run")),
                textOrNull(run, "hostname", "run"), results.size(),
                integer(summary, "exit_code", "summary"), seconds(summary, "summary"));
        return new Read(version, textOrNull(root.path("tool"), "version", "tool"), results, origins,
                source, flag(summary, "interrupted", "summary"), summary.path("not_run").asInt(0),
                flag(summary, "stopped_early", "summary"));
    }

    private static CheckResult check(JsonNode c, String at) throws FormatException {
        List<GradientResult> gradients = new ArrayList<>();
        JsonNode rows = c.path("gradients");
        for (int i = 0; i < rows.size(); i++) {
            gradients.add(gradient(rows.get(i), at + ".gradients[" + i + "]"));
        }
        List<NodeFinding> nodes = new ArrayList<>();
        JsonNode found = c.path("nodes");
        for (int i = 0; i < found.size(); i++) {
            nodes.add(node(found.get(i), at + ".nodes[" + i + "]"));
        }
        return new CheckResult(text(c, "name", at), text(c, "location", at), text(c, "op", at),
                text(c, "backend", at), text(c, "dtype", at), status(c, at), text(c, "expected", at),
                textOrNull(c, "reason", at), textOrNull(c, "message", at), gradients,
                textOrNull(c, "tolerance", at), number(c, "delta", at),
                seconds(c, at), nodes, crossBackend(c.path("cross_backend"),
                at + ".cross_backend"), texts(c.path("defaulted_attributes"), at + ".defaulted_attributes"))
                .withLog(texts(c.path("log"), at + ".log")).withCalls(calls(c.path("calls"), at + ".calls"));
    }

    /** A check's calls; null where the report has none (written before the field, or no function ran). */
    private static Calls calls(JsonNode calls, String at) throws FormatException {
        if (calls.isMissingNode() || calls.isNull()) {
            return null;
        }
        long forward = longValue(calls, "forward", at);
        long backward = longValue(calls, "backward", at);
        if (forward < 0 || backward < 0) {
            throw new FormatException(at + ": counts cannot be negative");
        }
        return new Calls(forward, backward);
    }

    private static GradientResult gradient(JsonNode g, String at) throws FormatException {
        JsonNode sampled = g.path("sampled");
        Sampling sampling = sampled.isObject() ? new Sampling(integer(sampled, "input_elements", at),
                longValue(sampled, "input_total", at), integer(sampled, "output_elements", at),
                longValue(sampled, "output_total", at), indices(sampled.path("input_positions"),
                at + ".sampled.input_positions"), indices(sampled.path("output_positions"),
                at + ".sampled.output_positions")) : null;
        return new GradientResult(text(g, "output", at), text(g, "input", at),
                named(g, "kind", at, CheckKind::fromReportName), integer(g, "order", at),
                named(g, "verdict", at, Verdict::fromReportName), number(g, "max_abs_error", at),
                number(g, "max_rel_error", at), number(g, "max_score", at),
                worst(g.path("worst"), at + ".worst"), longValue(g, "evaluations", at),
                seconds(g, at), textOrNull(g, "note", at), sampling)
                .withDiagnosis(mismatches(g.path("mismatches"), at + ".mismatches"), null);
    }

    /** A block's mismatch count and where (reports before it was written have none: null). */
    private static Mismatches mismatches(JsonNode m, String at) throws FormatException {
        if (!m.isObject()) {
            return null;
        }
        List<WorstElement> worst = new ArrayList<>();
        JsonNode list = m.path("worst");
        for (int i = 0; i < list.size(); i++) {
            worst.add(worst(list.get(i), at + ".worst[" + i + "]"));
        }
        return new Mismatches(longValue(m, "count", at), longValue(m, "judged", at), longValue(m, "masked", at),
                region(m.path("region"), at + ".region"), worst,
                entrySet(m.path("analytic_nonzero"), at + ".analytic_nonzero"),
                entrySet(m.path("numerical_nonzero"), at + ".numerical_nonzero"));
    }

    private static EntrySet entrySet(JsonNode s, String at) throws FormatException {
        return s.isObject() ? new EntrySet(longValue(s, "count", at), region(s.path("region"), at + ".region")) : null;
    }

    private static EntryRegion region(JsonNode r, String at) throws FormatException {
        if (!r.isObject()) {
            return null;
        }
        return new EntryRegion(texts(r.path("output"), at + ".output"), texts(r.path("input"), at + ".input"),
                r.path("exact").asBoolean());
    }

    /** An array of strings; empty when absent (a field added after the report was written). */
    private static List<String> texts(JsonNode array, String at) throws FormatException {
        if (array.isMissingNode() || array.isNull()) {
            return List.of();
        }
        if (!array.isArray()) {
            throw new FormatException(at + ": expected an array of strings");
        }
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            if (!array.get(i).isTextual()) {
                throw new FormatException(at + "[" + i + "]: expected a string");
            }
            texts.add(array.get(i).asText());
        }
        return texts;
    }

    /** An array of multi-indices; empty when absent. */
    private static List<long[]> indices(JsonNode array, String at) throws FormatException {
        List<long[]> indices = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            indices.add(index(array.get(i), at + "[" + i + "]"));
        }
        return indices;
    }

    private static NodeFinding node(JsonNode n, String at) throws FormatException {
        JsonNode worst = n.path("worst_gradient");
        return new NodeFinding(integer(n, "node", at), text(n, "op", at), text(n, "out", at),
                text(n, "location", at), status(n, at), worst.isObject() ? gradient(worst, at + ".worst_gradient")
                : null, textOrNull(n, "message", at));
    }

    private static WorstElement worst(JsonNode w, String at) throws FormatException {
        if (!w.isObject()) {
            return null;
        }
        return new WorstElement(index(w.path("output_index"), at + ".output_index"),
                index(w.path("input_index"), at + ".input_index"), number(w, "analytic", at),
                number(w, "numerical", at));
    }

    private static BackendDifference crossBackend(JsonNode d, String at) throws FormatException {
        if (!d.isObject()) {
            return null;
        }
        return new BackendDifference(text(d, "against", at), number(d, "max_output_abs_diff", at),
                number(d, "max_output_rel_diff", at), text(d, "worst_output", at),
                number(d, "max_gradient_abs_diff", at), number(d, "max_gradient_rel_diff", at),
                text(d, "worst_gradient", at));
    }

    private static long[] index(JsonNode array, String at) throws FormatException {
        if (array.isNull() || array.isMissingNode()) {
            return null;
        }
        if (!array.isArray()) {
            throw new FormatException(at + ": expected an array of integers");
        }
        long[] index = new long[array.size()];
        for (int i = 0; i < index.length; i++) {
            if (!array.get(i).canConvertToLong() || !array.get(i).isIntegralNumber()) {
                throw new FormatException(at + "[" + i + "]: expected an integer");
            }
            index[i] = array.get(i).asLong();
        }
        return index;
    }

    private static Status status(JsonNode node, String at) throws FormatException {
        return named(node, "status", at, Status::fromJsonName);
    }

    /** {@code parent.field}, or {@code field} at the top. */
    private static String path(String parent, String field) {
        return parent.isEmpty() ? field : parent + "." + field;
    }

    private static <T> T named(JsonNode node, String field, String parent, Function<String, Optional<T>> parse)
            throws FormatException {
        String name = text(node, field, parent);
        return parse.apply(name).orElseThrow(() -> new FormatException(path(parent, field) + ": unknown value '"
                + name + "'"));
    }

    private static JsonNode object(JsonNode node, String field, String at) throws FormatException {
        JsonNode value = node.path(field);
        if (!value.isObject()) {
            throw new FormatException(at + ": expected an object");
        }
        return value;
    }

    private static String text(JsonNode node, String field, String parent) throws FormatException {
        JsonNode value = node.path(field);
        if (!value.isTextual()) {
            throw new FormatException(path(parent, field) + ": expected a string");
        }
        return value.asText();
    }

    /** A string field the schema allows to be null. */
    private static String textOrNull(JsonNode node, String field, String parent) throws FormatException {
        JsonNode value = node.path(field);
        if (value.isNull() || value.isMissingNode()) {
            return null;
        }
        return text(node, field, parent);
    }

    /** A number, or one of the strings NaN, Infinity, -Infinity (docs/report-schema.md, Numbers). */
    private static double number(JsonNode node, String field, String parent) throws FormatException {
        JsonNode value = node.path(field);
        if (value.isNumber()) {
            return value.asDouble();
        }
        String special = value.isTextual() ? value.asText() : "";
        return switch (special) {
            case "NaN" -> Double.NaN;
            case "Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> throw new FormatException(path(parent, field) + ": expected a number");
        };
    }

    /** A {@code seconds} field: a number from 0 to {@link #MAX_SECONDS} (a negative or 1e308 time was taken). */
    private static double seconds(JsonNode node, String parent) throws FormatException {
        double seconds = number(node, "seconds", parent);
        if (!(seconds >= 0 && seconds <= MAX_SECONDS)) {
            throw new FormatException(path(parent, "seconds") + ": expected seconds from 0 to " + (long) MAX_SECONDS
                    + ", got " + node.path("seconds"));
        }
        return seconds;
    }

    /** A boolean the schema may leave out (false then); {@code "yes"} or 1 is no boolean. */
    private static boolean flag(JsonNode node, String field, String parent) throws FormatException {
        JsonNode value = node.path(field);
        if (value.isMissingNode()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new FormatException(path(parent, field) + ": expected true or false");
        }
        return value.booleanValue();
    }

    private static int integer(JsonNode node, String field, String parent) throws FormatException {
        JsonNode value = node.path(field);
        if (!value.isInt()) {
            throw new FormatException(path(parent, field) + ": expected an integer");
        }
        return value.asInt();
    }

    private static long longValue(JsonNode node, String field, String parent) throws FormatException {
        JsonNode value = node.path(field);
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new FormatException(path(parent, field) + ": expected an integer");
        }
        return value.asLong();
    }
}
