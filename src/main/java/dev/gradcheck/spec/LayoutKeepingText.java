package dev.gradcheck.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * An edited spec written over its file's own text, so that {@code save} keeps the file's comments and layout: the
 * lines of each top-level key the edits left alone are kept as they were (with the comments above them), a key
 * whose value changed is written anew in its place, a removed key's lines go, and a new key comes at the end. When
 * the result would not read back as the edited document (a layout this cannot follow), there is none, and the
 * caller writes the document out whole.
 */
final class LayoutKeepingText {

    private LayoutKeepingText() {}

    /**
     * @param fileText the file's text, holding this one document
     * @param edited   the document as edited
     * @return the text, or null when the file's layout cannot be kept
     */
    static String of(String fileText, String fileName, ObjectNode edited) {
        List<YamlTreeReader.Document> docs = YamlTreeReader.read(fileName, fileText).documents().stream()
                .filter(d -> !d.isEmpty()).toList();
        if (docs.size() != 1 || !(docs.get(0).root() instanceof YamlNode.Mapping root) || !docs.get(0).errors()
                .isEmpty()) {
            return null;
        }
        String[] lines = fileText.split("\n", -1);
        List<YamlNode.Entry> entries = root.entries();
        StringBuilder out = new StringBuilder();
        int firstKey = entries.isEmpty() ? lines.length : start(lines, entries.get(0).keyPos().line() - 1);
        append(out, lines, 0, firstKey);
        for (int i = 0; i < entries.size(); i++) {
            YamlNode.Entry e = entries.get(i);
            int from = start(lines, e.keyPos().line() - 1);
            int keyLine = e.keyPos().line() - 1;
            int to = i + 1 < entries.size() ? start(lines, entries.get(i + 1).keyPos().line() - 1) : end(lines);
            append(out, lines, from, keyLine); // the comments above the key stay whatever happens to it
            JsonNode now = edited.get(e.key());
            if (now == null) {
                continue; // removed
            }
            if (now.equals(SpecDocument.json(e.value()))) {
                append(out, lines, keyLine, to);
            } else {
                out.append(keyValue(e.key(), now));
            }
        }
        for (Iterator<String> keys = edited.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (root.get(key).isEmpty()) {
                out.append(keyValue(key, edited.get(key)));
            }
        }
        append(out, lines, entries.isEmpty() ? lines.length : end(lines), lines.length);
        String text = out.toString();
        List<YamlTreeReader.Document> back = YamlTreeReader.read(fileName, text).documents();
        return back.size() == 1 && SpecDocument.json(back.get(0).root()).equals(edited) ? text : null;
    }

    /** The first line of a key's block: its own, or the comment and blank lines right above it. */
    private static int start(String[] lines, int keyLine) {
        int s = keyLine;
        while (s > 0 && isCommentOrBlank(lines[s - 1])) {
            s--;
        }
        return s;
    }

    /** Where the last key's block ends: before the trailing comments, blank lines and document end. */
    private static int end(String[] lines) {
        int e = lines.length;
        while (e > 0 && (isCommentOrBlank(lines[e - 1]) || lines[e - 1].strip().equals("..."))) {
            e--;
        }
        return e;
    }

    private static boolean isCommentOrBlank(String line) {
        String s = line.strip();
        return s.isEmpty() || s.startsWith("#");
    }

    private static void append(StringBuilder out, String[] lines, int from, int to) {
        for (int i = from; i < to; i++) {
            out.append(lines[i]);
            if (i < lines.length - 1) {
                out.append('\n');
            }
        }
    }

    private static String keyValue(String key, JsonNode value) {
        ObjectNode one = JsonNodeFactory.instance.objectNode();
        one.set(key, value);
        return YamlText.of(one);
    }
}
