package dev.gradcheck.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import dev.gradcheck.result.BackendDifference;
import dev.gradcheck.result.Calls;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.EntrySet;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.EntryRegion;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Sampling;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import dev.gradcheck.result.WorstElement;
import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * The machine-readable report, schema {@value #SCHEMA} version {@value #SCHEMA_VERSION}, documented field by
 * field in docs/report-schema.md. Written with a streaming generator rather than data binding so that key order
 * is fixed by this code, not by reflection, and the bytes stay stable across Jackson versions.
 */
public final class JsonRenderer implements ReportRenderer {

    public static final String SCHEMA = "gradcheck-report";
    /** Bump on any breaking change (removing, renaming or retyping a field); adding fields is not breaking. */
    public static final int SCHEMA_VERSION = 1;
    public static final String TOOL_NAME = "gradcheck";

    private static final JsonFactory FACTORY = new JsonFactory();

    @Override
    public void render(List<CheckResult> results, Summary summary, ReportContext ctx, Writer out)
            throws IOException {
        // The caller owns the writer (stdout or --output FILE): closing the generator must not close it.
        try (JsonGenerator gen = FACTORY.createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)) {
            gen.setPrettyPrinter(prettyPrinter());
            gen.setCharacterEscapes(Escapes.INSTANCE);
            gen.writeStartObject();
            gen.writeStringField("schema", SCHEMA);
            gen.writeNumberField("schema_version", SCHEMA_VERSION);
            gen.writeObjectFieldStart("tool");
            gen.writeStringField("name", TOOL_NAME);
            gen.writeStringField("version", ctx.toolVersion());
            gen.writeEndObject();
            writeRun(gen, ctx.run());
            writeSummary(gen, summary, ctx.interrupted(), ctx.run());
            gen.writeArrayFieldStart("checks");
            for (CheckResult r : results) {
                writeCheck(gen, r, ctx.run().origins().of(r));
            }
            gen.writeEndArray();
            gen.writeEndObject();
        }
        out.write("\n"); // POSIX text file, and `cat report.json` leaves the prompt on its own line
    }

    /** When and where the run was, its shard, and for a merged report the reports it was made of. */
    private static void writeRun(JsonGenerator gen, RunDetails run) throws IOException {
        gen.writeObjectFieldStart("run");
        gen.writeStringField("started_at", Timestamps.json(run.startedAt()));
        gen.writeStringField("hostname", run.hostname());
        gen.writeStringField("shard", run.shard());
        gen.writeArrayFieldStart("merged_from");
        for (RunDetails.Source source : run.sources()) {
            gen.writeStartObject();
            gen.writeStringField("report", source.file());
            gen.writeStringField("shard", source.shard());
            gen.writeStringField("started_at", Timestamps.json(source.startedAt()));
            gen.writeStringField("hostname", source.hostname());
            gen.writeNumberField("checks", source.checks());
            gen.writeNumberField("exit_code", source.exitCode());
            writeDouble(gen, "seconds", source.seconds());
            gen.writeEndObject();
        }
        gen.writeEndArray();
        gen.writeEndObject();
    }

    private static void writeSummary(JsonGenerator gen, Summary s, boolean interrupted, RunDetails run)
            throws IOException {
        gen.writeObjectFieldStart("summary");
        gen.writeNumberField("total", s.total());
        for (Status status : Status.values()) {
            gen.writeNumberField(status.jsonName(), s.counts().getOrDefault(status, 0));
        }
        gen.writeNumberField("exit_code", s.exitCode());
        gen.writeBooleanField("interrupted", interrupted);
        writeDouble(gen, "seconds", s.seconds());
        gen.writeNumberField("not_run", run.notRun());
        gen.writeBooleanField("stopped_early", run.stoppedEarly());
        gen.writeEndObject();
    }

    private static void writeCheck(JsonGenerator gen, CheckResult r, RunDetails.CheckOrigin origin)
            throws IOException {
        gen.writeStartObject();
        gen.writeStringField("name", r.name());
        gen.writeStringField("location", r.location());
        gen.writeStringField("op", r.op());
        gen.writeStringField("backend", r.backend());
        gen.writeStringField("dtype", r.dtype());
        gen.writeStringField("status", r.status().jsonName());
        gen.writeBooleanField("unexpected", r.status().needsAttention());
        gen.writeStringField("expected", r.expected());
        gen.writeStringField("reason", r.reason());
        gen.writeStringField("message", r.message());
        gen.writeStringField("tolerance", r.tolerance());
        writeDouble(gen, "delta", r.delta());
        writeDouble(gen, "seconds", r.seconds());
        writeCheckWorst(gen, r.gradients() == null || r.gradients().isEmpty() ? null : r.worstGradient());
        gen.writeArrayFieldStart("gradients");
        for (GradientResult g : r.gradients() == null ? List.<GradientResult>of() : r.gradients()) {
            writeGradient(gen, g);
        }
        gen.writeEndArray();
        gen.writeArrayFieldStart("nodes");
        for (NodeFinding n : r.nodes()) {
            writeNode(gen, n);
        }
        gen.writeEndArray();
        writeCrossBackend(gen, r.crossBackend());
        gen.writeStringField("id", origin.id());
        gen.writeStringField("shard", origin.shard());
        gen.writeArrayFieldStart("defaulted_attributes");
        for (String name : r.defaultedAttributes()) {
            gen.writeString(name);
        }
        gen.writeEndArray();
        gen.writeArrayFieldStart("log");
        for (String line : r.log()) {
            gen.writeString(line);
        }
        gen.writeEndArray();
        writeCalls(gen, r.calls());
        gen.writeEndObject();
    }

    /** The calls the check made on the function it judged: {"forward": n, "backward": m}, or null. */
    private static void writeCalls(JsonGenerator gen, Calls calls) throws IOException {
        if (calls == null) {
            gen.writeNullField("calls");
            return;
        }
        gen.writeObjectFieldStart("calls");
        gen.writeNumberField("forward", calls.forward());
        gen.writeNumberField("backward", calls.backward());
        gen.writeEndObject();
    }

    /**
     * The row the table shows for the whole check (its WORST column): the block, its worst entry with both values,
     * and the block's errors, flat, so that {@code jq '.checks[] | select(.unexpected) | .worst'} needs no search
     * over the gradients; null when the check compared nothing.
     */
    private static void writeCheckWorst(JsonGenerator gen, GradientResult g) throws IOException {
        gen.writeFieldName("worst");
        if (g == null) {
            gen.writeNull();
            return;
        }
        WorstElement w = g.worst();
        gen.writeStartObject();
        gen.writeStringField("block", GradientText.name(g));
        gen.writeStringField("output", g.output());
        gen.writeStringField("input", g.input());
        gen.writeStringField("kind", g.kind().reportName());
        gen.writeNumberField("order", g.order());
        gen.writeStringField("verdict", g.verdict().reportName());
        writeIndex(gen, "output_index", w == null ? null : w.outputIndex());
        writeIndex(gen, "input_index", w == null ? null : w.inputIndex());
        gen.writeStringField("element", w == null ? null : GradientText.location(g, w));
        writeOptionalDouble(gen, "analytic", w == null ? null : w.analytic());
        writeOptionalDouble(gen, "numerical", w == null ? null : w.numerical());
        writeDouble(gen, "max_abs_error", g.maxAbsError());
        writeDouble(gen, "max_rel_error", g.maxRelError());
        writeDouble(gen, "max_score", g.maxScore());
        gen.writeEndObject();
    }

    private static void writeOptionalDouble(JsonGenerator gen, String field, Double v) throws IOException {
        if (v == null) {
            gen.writeNullField(field);
        } else {
            writeDouble(gen, field, v);
        }
    }

    /** A failing graph's node, checked on its own; its worst block in the same form as a check's gradients. */
    private static void writeNode(JsonGenerator gen, NodeFinding n) throws IOException {
        gen.writeStartObject();
        gen.writeNumberField("node", n.node());
        gen.writeStringField("op", n.op());
        gen.writeStringField("out", n.out());
        gen.writeStringField("location", n.location());
        gen.writeStringField("status", n.status().jsonName());
        gen.writeBooleanField("wrong", n.wrong());
        gen.writeStringField("message", n.message());
        gen.writeFieldName("worst_gradient");
        if (n.worst() == null) {
            gen.writeNull();
        } else {
            writeGradient(gen, n.worst());
        }
        gen.writeEndObject();
    }

    private static void writeGradient(JsonGenerator gen, GradientResult g) throws IOException {
        gen.writeStartObject();
        gen.writeStringField("output", g.output());
        gen.writeStringField("input", g.input());
        gen.writeStringField("kind", g.kind().reportName());
        gen.writeNumberField("order", g.order());
        gen.writeStringField("verdict", g.verdict().reportName());
        writeDouble(gen, "max_abs_error", g.maxAbsError());
        writeDouble(gen, "max_rel_error", g.maxRelError());
        writeDouble(gen, "max_score", g.maxScore());
        writeWorst(gen, g.worst());
        gen.writeNumberField("evaluations", g.evaluations());
        writeDouble(gen, "seconds", g.seconds());
        gen.writeStringField("note", g.note());
        writeSampling(gen, g.sampling());
        writeMismatches(gen, g);
        gen.writeEndObject();
    }

    /** How many entries of a compared block disagree, where, and the worst few: docs/report-schema.md. */
    private static void writeMismatches(JsonGenerator gen, GradientResult g) throws IOException {
        gen.writeFieldName("mismatches");
        Mismatches m = g.mismatches();
        if (m == null) {
            gen.writeNull();
            return;
        }
        gen.writeStartObject();
        gen.writeNumberField("count", m.count());
        gen.writeNumberField("judged", m.judged());
        gen.writeNumberField("masked", m.masked());
        gen.writeStringField("where", GradientText.region(g));
        writeRegion(gen, m.region());
        gen.writeArrayFieldStart("worst");
        for (WorstElement w : m.worst()) {
            writeElement(gen, w);
        }
        gen.writeEndArray();
        writeEntrySet(gen, "analytic_nonzero", g, m.analyticNonzero());
        writeEntrySet(gen, "numerical_nonzero", g, m.numericalNonzero());
        gen.writeEndObject();
    }

    private static void writeRegion(JsonGenerator gen, EntryRegion region) throws IOException {
        gen.writeFieldName("region");
        if (region == null) {
            gen.writeNull();
            return;
        }
        gen.writeStartObject();
        writeTokens(gen, "output", region.output());
        writeTokens(gen, "input", region.input());
        gen.writeBooleanField("exact", region.exact());
        gen.writeEndObject();
    }

    private static void writeEntrySet(JsonGenerator gen, String field, GradientResult g, EntrySet set)
            throws IOException {
        gen.writeFieldName(field);
        if (set == null) {
            gen.writeNull();
            return;
        }
        gen.writeStartObject();
        gen.writeNumberField("count", set.count());
        gen.writeStringField("where", GradientText.region(g, set.region()));
        writeRegion(gen, set.region());
        gen.writeEndObject();
    }

    /** Axis tokens on one line, like an index. */
    private static void writeTokens(JsonGenerator gen, String field, List<String> tokens) throws IOException {
        gen.writeFieldName(field);
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < tokens.size(); i++) {
            sb.append(i == 0 ? "" : ", ");
            StringBuilder quoted = new StringBuilder();
            JsonStringEncoder.getInstance().quoteAsString(tokens.get(i), quoted);
            sb.append('"').append(quoted).append('"');
        }
        gen.writeRawValue(sb.append(']').toString());
    }

    private static void writeSampling(JsonGenerator gen, Sampling sampling) throws IOException {
        gen.writeFieldName("sampled");
        if (sampling == null) {
            gen.writeNull();
            return;
        }
        gen.writeStartObject();
        gen.writeNumberField("input_elements", sampling.inputChecked());
        gen.writeNumberField("input_total", sampling.inputTotal());
        gen.writeNumberField("output_elements", sampling.outputChecked());
        gen.writeNumberField("output_total", sampling.outputTotal());
        writeIndices(gen, "input_positions", sampling.inputPositions());
        writeIndices(gen, "output_positions", sampling.outputPositions());
        gen.writeEndObject();
    }

    private static void writeCrossBackend(JsonGenerator gen, BackendDifference d) throws IOException {
        gen.writeFieldName("cross_backend");
        if (d == null) {
            gen.writeNull();
            return;
        }
        gen.writeStartObject();
        gen.writeStringField("against", d.against());
        writeDouble(gen, "max_output_abs_diff", d.maxOutputAbs());
        writeDouble(gen, "max_output_rel_diff", d.maxOutputRel());
        gen.writeStringField("worst_output", d.worstOutput());
        writeDouble(gen, "max_gradient_abs_diff", d.maxGradientAbs());
        writeDouble(gen, "max_gradient_rel_diff", d.maxGradientRel());
        gen.writeStringField("worst_gradient", d.worstGradient());
        gen.writeEndObject();
    }

    private static void writeWorst(JsonGenerator gen, WorstElement w) throws IOException {
        gen.writeFieldName("worst");
        if (w == null) {
            gen.writeNull();
            return;
        }
        writeElement(gen, w);
    }

    /** A list of multi-indices, one per line. */
    private static void writeIndices(JsonGenerator gen, String field, List<long[]> indices) throws IOException {
        gen.writeArrayFieldStart(field);
        for (long[] index : indices) {
            gen.writeRawValue(indexText(index));
        }
        gen.writeEndArray();
    }

    private static void writeElement(JsonGenerator gen, WorstElement w) throws IOException {
        gen.writeStartObject();
        writeIndex(gen, "output_index", w.outputIndex());
        writeIndex(gen, "input_index", w.inputIndex());
        writeDouble(gen, "analytic", w.analytic());
        writeDouble(gen, "numerical", w.numerical());
        gen.writeEndObject();
    }

    /**
     * A multi-index on one line, {@code [1, 2]}: the pretty printer would put each coordinate on its own line.
     * Raw output is safe here because the content is only integers that this method formats itself.
     */
    private static void writeIndex(JsonGenerator gen, String field, long[] index) throws IOException {
        gen.writeFieldName(field);
        if (index == null) {
            gen.writeNull();
            return;
        }
        gen.writeRawValue(indexText(index));
    }

    private static String indexText(long[] index) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < index.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(index[i]);
        }
        return sb.append(']').toString();
    }

    /**
     * JSON has no NaN or Infinity, and a gradient check produces them (a NaN numerical gradient is a finding).
     * They are written as the strings "NaN", "Infinity" and "-Infinity", the spellings Jackson, JavaScript's
     * Number() and Python's float() all read back. Done here rather than through the generator's
     * QUOTE_NON_NUMERIC_NUMBERS feature so the schema does not hang on a library default.
     */
    private static void writeDouble(JsonGenerator gen, String field, double v) throws IOException {
        if (Double.isNaN(v)) {
            gen.writeStringField(field, "NaN");
        } else if (Double.isInfinite(v)) {
            gen.writeStringField(field, v > 0 ? "Infinity" : "-Infinity");
        } else {
            gen.writeNumberField(field, v);
        }
    }

    /** Two-space indent, {@code "key": value}, {@code \n} line ends on every platform, empty containers as [] / {}. */
    /**
     * Jackson escapes C0 controls already (<code>&#92;u001B</code>); this adds DEL, the C1 controls, U+FFFE,
     * U+FFFF and every surrogate as <code>&#92;uXXXX</code> escapes, so the report holds the exact text (a reader
     * decodes a pair back to its character, and a lone surrogate survives, which a UTF-8 encoder would turn into
     * '?') in bytes that are valid UTF-8 and that a terminal shown the file ({@code cat report.json}) cannot obey.
     */
    private static final class Escapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        static final Escapes INSTANCE = new Escapes();
        private final int[] ascii = standardAsciiEscapesForJSON();

        private Escapes() {
            ascii[0x7F] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            boolean escaped = (ch >= 0x80 && ch <= 0x9F) || Character.isSurrogate((char) ch) || ch == 0xFFFE
                    || ch == 0xFFFF;
            return escaped ? new SerializedString(String.format("\\u%04X", ch)) : null;
        }
    }

    private static DefaultPrettyPrinter prettyPrinter() {
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        return new DefaultPrettyPrinter(separators).withObjectIndenter(indenter).withArrayIndenter(indenter);
    }
}
