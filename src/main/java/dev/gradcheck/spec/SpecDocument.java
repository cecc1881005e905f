package dev.gradcheck.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One spec document that can be edited in memory (the shell's {@code set delta 1e-4}): its tree, the spec it
 * validates to, and the YAML text a worker reads it from. Unedited, it is the file's document as {@link SpecLoader}
 * loads it, positions and all; once edited, its text is written anew ({@link YamlText}) and loaded under the label
 * {@code FILE (edited)}, so that error positions point into that text, never into lines of the file they do not
 * describe. Instances are immutable: each edit returns a new document.
 */
public final class SpecDocument {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Path file;
    private final String fileText;
    private final LoadedSpec fromFile;
    /** The document as the file has it; null when it is not a mapping (unreadable, or not a spec). */
    private final ObjectNode fileTree;
    /** The document's content now; null exactly when {@code fileTree} is, and then it cannot be edited. */
    private final ObjectNode tree;
    private final List<String> edits;
    private final LoadedSpec current;

    private SpecDocument(Path file, String fileText, LoadedSpec fromFile, ObjectNode fileTree, ObjectNode tree,
                         List<String> edits) {
        this.file = file;
        this.fileText = fileText;
        this.fromFile = fromFile;
        this.fileTree = fileTree;
        this.tree = tree;
        this.edits = List.copyOf(edits);
        this.current = edits.isEmpty() ? fromFile
                : new SpecLoader().loadText(label(), fromFile.name(), text()).get(0);
    }

    /** Every document of the file, as {@link SpecLoader#load} finds them (an unreadable file: one, invalid). */
    public static List<SpecDocument> read(Path file) {
        String text = SpecLoader.textOf(file);
        if (text == null) {
            return new SpecLoader().load(file).stream().map(s -> new SpecDocument(file, null, s, null, null, List.of()))
                    .toList();
        }
        String name = file.toString();
        List<LoadedSpec> loaded = new SpecLoader().loadText(name, SpecLoader.stem(file), text);
        List<YamlTreeReader.Document> docs = YamlTreeReader.read(name, text).documents().stream()
                .filter(d -> !d.isEmpty()).toList();
        List<SpecDocument> all = new ArrayList<>();
        for (int i = 0; i < loaded.size(); i++) {
            JsonNode tree = i < docs.size() ? json(docs.get(i).root()) : null;
            ObjectNode mapping = tree instanceof ObjectNode o ? o : null;
            all.add(new SpecDocument(file, text, loaded.get(i), mapping, mapping, List.of()));
        }
        return all;
    }

    public Path file() {
        return file;
    }

    /** The spec's name, as it was loaded from the file (an edit of {@code name:} shows in {@link #spec()}). */
    public String name() {
        return fromFile.name();
    }

    /** The spec as it stands: the file's, or validated from the edited text. */
    public LoadedSpec spec() {
        return current;
    }

    /** Whether it can be edited: a mapping of keys (not an unreadable file, a syntax error or a list). */
    public boolean editable() {
        return tree != null;
    }

    public boolean edited() {
        return !edits.isEmpty();
    }

    /** The edits made, in order, each as {@code key: value}. */
    public List<String> edits() {
        return edits;
    }

    /** The file name positions carry: the file's, or {@code FILE (edited)} once edited. */
    public String label() {
        return edits.isEmpty() ? file.toString() : file + " (edited)";
    }

    /**
     * The document's YAML: the file's own lines while unedited (comments and all), else the edited tree written
     * out, with its name.
     */
    public String text() {
        if (edits.isEmpty() && fileText != null) {
            return fileLines();
        }
        if (tree == null) {
            return fileText == null ? "" : fileLines();
        }
        ObjectNode named = tree;
        if (!tree.has("name")) { // keep the name the file gave it (file stem, "#k" for the k-th document)
            named = NODES.objectNode();
            named.put("name", fromFile.name());
            named.setAll(tree);
        }
        return YamlText.of(named);
    }

    /**
     * The text {@code save} writes: the file's own text with the edits made in it, so that its comments and layout
     * stay ({@link LayoutKeepingText}); the document written out whole ({@link #text()}) where that cannot be done
     * (a file of several documents, a layout it cannot follow).
     */
    public String savedText() {
        if (edits.isEmpty() || fileText == null || tree == null) {
            return text();
        }
        String kept = LayoutKeepingText.of(fileText, file.toString(), tree);
        return kept != null ? kept : text();
    }

    /** The text a worker must read this document from, or null when it reads the file itself. */
    public String textForWorker() {
        return edits.isEmpty() ? null : text();
    }

    /**
     * This document with {@code path} set to {@code yamlValue}: {@code delta} {@code 1e-4},
     * {@code tolerance.atol} {@code 1e-5}, {@code attrs.dimension} {@code 0}, {@code inputs.x.init}
     * {@code {values: [1, 2]}}. A dotted path reaches into mappings (creating those missing) and lists (by index,
     * or one past the end to append). The value is YAML, read as a spec file's value is.
     *
     * @throws IllegalArgumentException saying what is wrong, in one line
     */
    public SpecDocument set(String path, String yamlValue) {
        JsonNode value = parseValue(yamlValue);
        ObjectNode edited = editableCopy();
        List<String> keys = keys(path);
        JsonNode parent = edited;
        for (int i = 0; i < keys.size() - 1; i++) {
            parent = child(parent, keys.get(i), keys.get(i + 1), path);
        }
        put(parent, keys.get(keys.size() - 1), value, path);
        return withEdit(edited, path + ": " + YamlText.flow(value));
    }

    /** This document without {@code path}; an error when there is nothing there. */
    public SpecDocument unset(String path) {
        ObjectNode edited = editableCopy();
        List<String> keys = keys(path);
        JsonNode parent = edited;
        for (int i = 0; i < keys.size() - 1 && parent != null; i++) {
            parent = get(parent, keys.get(i));
        }
        String last = keys.get(keys.size() - 1);
        if (parent instanceof ObjectNode o && o.has(last)) {
            o.remove(last);
        } else if (parent instanceof ArrayNode a && index(last) >= 0 && index(last) < a.size()) {
            a.remove(index(last));
        } else {
            throw new IllegalArgumentException("the spec has no '" + path + "'");
        }
        return withEdit(edited, "unset " + path);
    }

    /** The document as the file has it again. */
    public SpecDocument reset() {
        return edits.isEmpty() ? this : new SpecDocument(file, fileText, fromFile, fileTree, fileTree, List.of());
    }

    /** The current value at {@code path}, or null. */
    public JsonNode get(String path) {
        JsonNode node = tree;
        for (String key : keys(path)) {
            if (node == null) {
                return null;
            }
            node = get(node, key);
        }
        return node;
    }

    /**
     * Key paths a user may want to set, for completion: every key a spec can have, the nested keys of tolerance,
     * inputs and attrs as this document has them, and every path the document already holds.
     */
    public Set<String> keyPaths() {
        Set<String> paths = new LinkedHashSet<>(SpecValidator.KEYS);
        ToleranceValidator.KEYS.forEach(k -> paths.add("tolerance." + k));
        if (tree != null) {
            JsonNode inputs = tree.get("inputs");
            if (inputs instanceof ObjectNode in) {
                in.fieldNames().forEachRemaining(x -> {
                    InputsValidator.KEYS.forEach(k -> paths.add("inputs." + x + "." + k));
                    InitValidator.KINDS.forEach(k -> paths.add("inputs." + x + ".init." + k));
                });
            }
            collect(tree, "", paths);
        }
        return paths;
    }

    /** The spec keys of a document ({@code delta}, {@code inputs}, ...). */
    public static List<String> topLevelKeys() {
        return SpecValidator.KEYS;
    }

    /** The kinds of an input's {@code init} ({@code uniform}, {@code values}, ...). */
    public static List<String> initKinds() {
        return InitValidator.KINDS;
    }

    private static void collect(JsonNode node, String prefix, Set<String> paths) {
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String path = prefix + e.getKey();
                paths.add(path);
                collect(e.getValue(), path + ".", paths);
            }
        }
    }

    private SpecDocument withEdit(ObjectNode edited, String edit) {
        List<String> all = new ArrayList<>(edits);
        all.add(edit);
        return new SpecDocument(file, fileText, fromFile, fileTree, edited, all);
    }

    private ObjectNode editableCopy() {
        if (tree == null) {
            throw new IllegalArgumentException(fromFile.pos() + ": this document is not a mapping of spec keys and"
                    + " cannot be edited; fix the file and load it again");
        }
        return tree.deepCopy();
    }

    private static List<String> keys(String path) {
        List<String> keys = List.of(path.strip().split("\\.", -1));
        if (path.isBlank() || keys.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("'" + path + "' is not a key path (keys joined by dots:"
                    + " delta, tolerance.atol, inputs.x.init)");
        }
        String top = keys.get(0);
        if (!SpecValidator.KEYS.contains(top)) {
            throw new IllegalArgumentException("unknown spec key '" + top + "'"
                    + Suggestions.hint(top, SpecValidator.KEYS, "spec keys"));
        }
        return keys;
    }

    /** The child at {@code key}, made (a mapping, or a list when {@code next} is an index) when missing. */
    private static JsonNode child(JsonNode parent, String key, String next, String path) {
        JsonNode existing = get(parent, key);
        if (existing != null && existing.isContainerNode()) {
            return existing;
        }
        if (existing != null && !existing.isNull()) {
            throw new IllegalArgumentException("'" + key + "' in '" + path + "' holds " + YamlText.flow(existing)
                    + ", not keys");
        }
        JsonNode made = index(next) >= 0 ? NODES.arrayNode() : NODES.objectNode();
        put(parent, key, made, path);
        return made;
    }

    private static JsonNode get(JsonNode parent, String key) {
        if (parent instanceof ArrayNode a) {
            int i = index(key);
            return i >= 0 && i < a.size() ? a.get(i) : null;
        }
        return parent.get(key);
    }

    private static void put(JsonNode parent, String key, JsonNode value, String path) {
        if (parent instanceof ObjectNode o) {
            o.set(key, value);
            return;
        }
        ArrayNode a = (ArrayNode) parent;
        int i = index(key);
        if (i < 0 || i > a.size()) {
            throw new IllegalArgumentException("'" + key + "' in '" + path + "' is not an index of a list of "
                    + a.size());
        }
        if (i == a.size()) {
            a.add(value);
        } else {
            a.set(i, value);
        }
    }

    private static int index(String key) {
        return key.matches("\\d{1,9}") ? Integer.parseInt(key) : -1;
    }

    private static JsonNode parseValue(String yaml) {
        YamlTreeReader.Result read = YamlTreeReader.read("value", yaml);
        if (read.syntaxError() != null) {
            throw new IllegalArgumentException("'" + yaml + "' is not a YAML value: " + read.syntaxError().message());
        }
        if (read.documents().size() != 1) {
            throw new IllegalArgumentException("give one YAML value, got " + read.documents().size());
        }
        YamlTreeReader.Document doc = read.documents().get(0);
        if (!doc.errors().isEmpty()) {
            throw new IllegalArgumentException(doc.errors().get(0).message());
        }
        return json(doc.root());
    }

    /** The loader's tree as Jackson's, to edit and write out; scalars keep the type the loader gave them. */
    static JsonNode json(YamlNode node) {
        if (node instanceof YamlNode.Mapping m) {
            ObjectNode o = NODES.objectNode();
            m.entries().forEach(e -> o.set(e.key(), json(e.value())));
            return o;
        }
        if (node instanceof YamlNode.Sequence s) {
            ArrayNode a = NODES.arrayNode();
            s.items().forEach(i -> a.add(json(i)));
            return a;
        }
        YamlNode.Scalar s = (YamlNode.Scalar) node;
        return switch (s.kind()) {
            case STRING, ALIAS -> NODES.textNode(s.text());
            case INTEGER -> integer((BigInteger) s.value());
            case FLOAT -> NODES.numberNode((Double) s.value());
            case BOOLEAN -> NODES.booleanNode((Boolean) s.value());
            case NULL -> NODES.nullNode();
        };
    }

    private static JsonNode integer(BigInteger value) {
        return value.bitLength() < 64 ? NODES.numberNode(value.longValue()) : NODES.numberNode(value);
    }

    /**
     * The lines of this document in the file: from the separator before it (the file's start for the first, so
     * its leading comments come along) to the separator after it.
     */
    private String fileLines() {
        String[] lines = fileText.split("\n", -1);
        int from = Math.max(0, Math.min(lines.length - 1, fromFile.pos().line() - 1));
        while (from > 0 && !lines[from - 1].startsWith("---")) {
            from--;
        }
        int to = lines.length;
        for (int i = from + 1; i < lines.length; i++) {
            if (lines[i].startsWith("---") || lines[i].startsWith("...")) {
                to = i;
                break;
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = from; i < to; i++) {
            out.append(lines[i]).append('\n');
        }
        return out.toString().stripTrailing() + "\n";
    }
}
