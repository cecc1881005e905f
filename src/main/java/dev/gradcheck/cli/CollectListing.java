package dev.gradcheck.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.report.ReportFormat;
import dev.gradcheck.report.SafeText;
import dev.gradcheck.result.Engine;
import dev.gradcheck.run.Shard;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.SpecIds;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code check --collect-only}: what a selection picks, without checking anything (and without starting ND4J).
 * A table, or JSON ({@code "schema": "gradcheck-collection"}, docs/report-schema.md).
 */
final class CollectListing {

    static final String SCHEMA = "gradcheck-collection";
    static final int SCHEMA_VERSION = 1;

    private CollectListing() {}

    /**
     * The listing as a format lists a collection ({@link ReportFormat#listing()}).
     *
     * @param found how many specs were found before any selection
     * @param shard the shard taken, or null
     * @throws IllegalArgumentException for a format that lists none, which {@code check} refuses before this
     */
    static String of(ReportFormat.Listing listing, List<LoadedSpec> specs, int found, Shard shard, SpecIds ids) {
        try {
            return switch (listing) {
                case TABLE -> table(specs, found, shard, ids);
                case JSON -> json(specs, found, shard, ids, VersionProvider.version());
                case NONE -> throw new IllegalArgumentException("this format lists no collection");
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
    }

    /**
     * @param found how many specs were found before any selection
     * @param shard the shard taken, or null
     */
    static String table(List<LoadedSpec> specs, int found, Shard shard, SpecIds ids) {
        if (specs.isEmpty()) {
            return "no specs selected (of " + found + " found" + (shard == null ? "" : "; shard " + shard) + ")\n";
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"SPEC", "OP", "BACKENDS", "TAGS", "LOCATION"});
        for (LoadedSpec s : specs) {
            // a spec's name and tags are shown as text, never obeyed by the terminal (an ESC cannot hide a row)
            rows.add(Stream.of(s.name(), s.isValid() ? s.spec().op().value() : "INVALID", backends(s),
                String.join(",", s.tags()), s.pos().toString()).map(SafeText::forTerminal).toArray(String[]::new));
        }
        int[] widths = new int[rows.get(0).length];
        rows.forEach(r -> {
            for (int c = 0; c < r.length; c++) {
                widths[c] = Math.max(widths[c], r[c].length());
            }
        });
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            String[] r = rows.get(i);
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < r.length; c++) {
                line.append(c == 0 ? "" : "  ").append(c == r.length - 1 ? r[c] : pad(r[c], widths[c]));
            }
            out.append(line.toString().stripTrailing()).append('\n');
            if (i > 0 && !specs.get(i - 1).isValid()) {
                specs.get(i - 1).errors().forEach(e -> out.append("  ").append(e).append('\n'));
            }
        }
        long invalid = specs.stream().filter(s -> !s.isValid()).count();
        out.append('\n').append(specs.size()).append(specs.size() == 1 ? " spec" : " specs").append(" selected (of ")
                .append(found).append(" found").append(shard == null ? "" : "; shard " + shard)
                .append(invalid == 0 ? "" : "; " + invalid + " invalid").append(")\n");
        return out.toString();
    }

    static String json(List<LoadedSpec> specs, int found, Shard shard, SpecIds ids, String toolVersion)
            throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator g = new ObjectMapper().getFactory().createGenerator((Writer) text)) {
            DefaultIndenter indent = new DefaultIndenter("  ", "\n");
            g.setPrettyPrinter(new DefaultPrettyPrinter().withObjectIndenter(indent).withArrayIndenter(indent));
            g.writeStartObject();
            g.writeStringField("schema", SCHEMA);
            g.writeNumberField("schema_version", SCHEMA_VERSION);
            g.writeObjectFieldStart("tool");
            g.writeStringField("name", "gradcheck");
            g.writeStringField("version", toolVersion);
            g.writeEndObject();
            g.writeStringField("shard", shard == null ? null : shard.toString());
            g.writeNumberField("found", found);
            g.writeNumberField("selected", specs.size());
            g.writeArrayFieldStart("specs");
            for (LoadedSpec s : specs) {
                g.writeStartObject();
                g.writeStringField("id", ids.of(s));
                g.writeStringField("name", s.name());
                g.writeStringField("location", s.pos().toString());
                g.writeStringField("op", s.isValid() ? s.spec().op().value() : null);
                g.writeArrayFieldStart("backends");
                for (Engine e : s.isValid() ? s.spec().backends() : List.<Engine>of()) {
                    g.writeString(e.specName());
                }
                g.writeEndArray();
                g.writeArrayFieldStart("tags");
                for (String t : s.tags()) {
                    g.writeString(t);
                }
                g.writeEndArray();
                g.writeBooleanField("valid", s.isValid());
                g.writeArrayFieldStart("errors");
                for (SpecError e : s.errors()) {
                    g.writeString(e.toString());
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        return text + "\n";
    }

    private static String backends(LoadedSpec s) {
        return s.isValid() ? String.join(",", s.spec().backends().stream().map(Engine::specName).toList()) : "-";
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }
}
