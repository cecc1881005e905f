package dev.gradcheck.op.catalog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The ND4J operators a spec can name: their SameDiff classes, native backward kernels, named arguments, and
 * whether SameDiff can differentiate them. Read from {@value #RESOURCE}, which the build writes beside this class
 * ({@value #GENERATOR}, in Maven's process-classes phase), so that list-ops, coverage and validate answer
 * without starting ND4J (about 2 s of native and class-registry start-up). No ND4J class is touched here; only a
 * class path without the resource (a build that skipped the generator) scans ND4J instead, as slowly as before.
 */
public final class OpCatalog {

    /** The resource's name, relative to this class. */
    public static final String RESOURCE = "op-catalog.json";
    /**
     * The class that asks ND4J and writes the resource, named rather than linked: this package is the front end's
     * and touches no ND4J class (the architecture test follows every link from here), so the one way from here to
     * ND4J, the scan of a class path without the resource, goes by name ({@link #scanNd4j}).
     */
    public static final String GENERATOR = "dev.gradcheck.op.OpCatalogGenerator";
    /** The resource's layout; a reader refuses another. */
    static final int FORMAT = 1;

    /** Jackson's streaming layer alone: no object mapper to start for 700 small records. */
    private static final JsonFactory JSON = new JsonFactory();

    private static volatile OpCatalog instance;

    /** By name, in name order; an entry read from the resource is parsed when first asked for. */
    private final Map<String, CatalogLines.Line> ops;

    /**
     * One operator as the catalog knows it.
     *
     * @param info     what list-ops shows
     * @param backward whether it has a backward pass: a native {@code NAME_bp} kernel, or a Java {@code doDiff}
     *                 through which SameDiff differentiates it (probed at generation, see {@value #GENERATOR})
     * @param binding  what a spec's {@code attrs} may set, and how
     */
    public record Entry(OpInfo info, boolean backward, OpBinding binding) {}

    /** The operators the generator found ({@value #GENERATOR}). */
    public OpCatalog(List<Entry> entries) {
        Map<String, CatalogLines.Line> byName = new TreeMap<>();
        entries.forEach(e -> byName.put(e.info().name(), CatalogLines.Line.of(e)));
        this.ops = byName;
    }

    private OpCatalog(Map<String, CatalogLines.Line> ops) {
        this.ops = ops;
    }

    /** ND4J's operators, as the build recorded them (read once per JVM). */
    public static OpCatalog nd4j() {
        if (instance == null) {
            synchronized (OpCatalog.class) {
                if (instance == null) {
                    instance = load();
                }
            }
        }
        return instance;
    }

    private static OpCatalog load() {
        try (InputStream in = OpCatalog.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return scanNd4j(); // no generated catalog on this class path: ask ND4J itself
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read gradcheck's op catalog (" + RESOURCE + ")", e);
        }
    }

    /** The generator's own scan of ND4J's registries, as slowly as it takes (seconds). */
    private static OpCatalog scanNd4j() {
        try {
            return (OpCatalog) Class.forName(GENERATOR).getMethod("scan").invoke(null);
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no op catalog resource and no " + GENERATOR + " to scan ND4J", e);
        }
    }

    public Optional<OpInfo> find(String name) {
        return Optional.ofNullable(ops.get(name)).map(CatalogLines.Line::entry).map(Entry::info);
    }

    /** Every operator, sorted by name; includes registry-only names that no spec can build (checkable false). */
    public List<OpInfo> all() {
        return entries().stream().map(Entry::info).toList();
    }

    public Set<String> checkableNames() {
        Set<String> names = new TreeSet<>();
        entries().stream().map(Entry::info).filter(OpInfo::checkable).forEach(o -> names.add(o.name()));
        return names;
    }

    /** The operators with a backward pass (a native kernel or a Java {@code doDiff}), sorted by name. */
    public List<OpInfo> withBackward() {
        return entries().stream().filter(Entry::backward).map(Entry::info).toList();
    }

    /** How a spec's attributes reach the op; only for a checkable op of this catalog. */
    public OpBinding binding(String name) {
        Entry e = ops.containsKey(name) ? ops.get(name).entry() : null;
        if (e == null || e.binding() == null) {
            throw new IllegalArgumentException("no binding for op '" + name + "' in the catalog");
        }
        return e.binding();
    }

    /** The catalog as the resource holds it; {@code key} says what it was generated from. */
    public void write(OutputStream out, String key) throws IOException {
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("format", FORMAT);
            g.writeStringField("key", key);
            g.writeArrayFieldStart("ops");
            for (Entry e : entries()) {
                OpInfo o = e.info();
                g.writeRaw('\n'); // one op per line: readable, and diffs between two generations stay small
                g.writeStartObject();
                g.writeStringField("name", o.name());
                g.writeStringField("class", o.javaClass());
                g.writeBooleanField("bp_kernel", o.bpKernel());
                g.writeBooleanField("backward", e.backward());
                writeArgs(g, "args", o.args());
                if (e.binding() != null) {
                    writeArgs(g, "positional", e.binding().positional());
                    g.writeArrayFieldStart("properties");
                    for (String p : new TreeSet<>(e.binding().properties())) {
                        g.writeString(p);
                    }
                    g.writeEndArray();
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    /** Arguments as JSON objects (name, kind, index): the catalog's layout, which list-ops --json prints too. */
    public static void writeArgs(JsonGenerator g, String field, List<ArgInfo> args) throws IOException {
        g.writeArrayFieldStart(field);
        for (ArgInfo a : args) {
            g.writeStartObject();
            g.writeStringField("name", a.name());
            g.writeStringField("kind", a.kind().label());
            g.writeNumberField("index", a.index());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** The key a resource was generated with, or null when it has none or cannot be read. */
    public static String keyOf(InputStream in) {
        try (JsonParser p = JSON.createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("key")) {
                    return p.getValueAsString();
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Reads a catalog {@link #write} wrote: its lines are indexed by op name and each op parsed when first asked
     * for, since a run names a few of 700 ops and parsing them all cost each JVM about 23 ms of CPU at start-up
     * (docs/benchmarks.md, "Where a cold run's seconds go"). A text in another layout is parsed whole.
     */
    static OpCatalog read(InputStream in) throws IOException {
        byte[] text = in.readAllBytes();
        Map<String, CatalogLines.Line> lines = CatalogLines.index(text, FORMAT);
        return lines != null ? new OpCatalog(lines) : readWhole(text);
    }

    /**
     * The whole text at once. A streaming parse: list-ops reads all 700 ops, where a tree of nodes cost several
     * times as long.
     */
    static OpCatalog readWhole(byte[] text) throws IOException {
        List<Entry> entries = new ArrayList<>();
        int format = -1;
        try (JsonParser p = JSON.createParser(text)) {
            expect(p, p.nextToken(), JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("format")) {
                    format = p.getIntValue();
                } else if (field.equals("ops")) {
                    if (format != FORMAT) {
                        throw new IOException("op catalog of another format (" + format + ", expected " + FORMAT
                                + "): rebuild gradcheck (mvn package)");
                    }
                    expect(p, value, JsonToken.START_ARRAY);
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        entries.add(readEntry(p));
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
        if (format != FORMAT) {
            throw new IOException("op catalog without ops or of another format (" + format + ")");
        }
        return new OpCatalog(entries);
    }

    /** One op's object, from the parser at its start (read whole, or from the object's own line). */
    static Entry readEntry(JsonParser p) throws IOException {
        String name = null;
        String cls = null;
        boolean bpKernel = false;
        boolean backward = false;
        List<ArgInfo> args = List.of();
        List<ArgInfo> positional = null;
        Set<String> properties = new LinkedHashSet<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "name" -> name = p.getText();
                case "class" -> cls = value == JsonToken.VALUE_NULL ? null : p.getText();
                case "bp_kernel" -> bpKernel = p.getBooleanValue();
                case "backward" -> backward = p.getBooleanValue();
                case "args" -> args = readArgs(p, value);
                case "positional" -> positional = readArgs(p, value);
                case "properties" -> {
                    expect(p, value, JsonToken.START_ARRAY);
                    while (p.nextToken() == JsonToken.VALUE_STRING) {
                        properties.add(p.getText());
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (name == null) {
            throw new IOException("op catalog: an op without a name, near " + p.currentLocation());
        }
        return new Entry(new OpInfo(name, "nd4j", cls, bpKernel, args), backward,
                positional == null ? null : new OpBinding(positional, properties));
    }

    private static List<ArgInfo> readArgs(JsonParser p, JsonToken start) throws IOException {
        expect(p, start, JsonToken.START_ARRAY);
        List<ArgInfo> list = new ArrayList<>();
        while (p.nextToken() == JsonToken.START_OBJECT) {
            String name = null;
            ArgInfo.Kind kind = null;
            int index = 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "name" -> name = p.getText();
                    case "kind" -> {
                        String label = p.getText();
                        kind = ArgInfo.Kind.fromLabel(label).orElseThrow(
                                () -> new IOException("op catalog: unknown argument kind '" + label + "'"));
                    }
                    case "index" -> index = p.getIntValue();
                    default -> p.skipChildren();
                }
            }
            list.add(new ArgInfo(name, kind, index));
        }
        return List.copyOf(list);
    }

    private static void expect(JsonParser p, JsonToken got, JsonToken wanted) throws IOException {
        if (got != wanted) {
            throw new IOException("op catalog: expected " + wanted + ", found " + got + " at " + p.currentLocation());
        }
    }

    /** Entries in name order. */
    List<Entry> entries() {
        return ops.values().stream().map(CatalogLines.Line::entry).toList();
    }

    /** Jackson's streaming parser over part of a text. */
    static JsonParser parser(byte[] text, int start, int length) throws IOException {
        return JSON.createParser(text, start, length);
    }
}
