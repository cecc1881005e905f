package dev.gradcheck.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Writes a spec tree back as YAML a person would write: mappings in block style, short lists and mappings in flow
 * style ({@code shape: [4, 7]}, {@code tolerance: {atol: 1.0E-5}}). Strings are left plain only where reading them
 * back gives the same string; otherwise they are double-quoted (JSON's escapes are YAML's too). What it writes reads
 * back, through {@link SpecLoader}, to the same spec: the shell's edited documents rely on that.
 */
public final class YamlText {

    /** A container whose flow form is longer than this goes on lines of its own. */
    private static final int FLOW_WIDTH = 88;
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_./-]*");
    private static final YAMLMapper MAPPER = new YAMLMapper();

    private YamlText() {}

    /** A document: the root mapping in block style, ending with a newline. */
    static String of(ObjectNode root) {
        StringBuilder out = new StringBuilder();
        mapping(root, 0, out);
        return out.toString();
    }

    private static void mapping(JsonNode map, int indent, StringBuilder out) {
        for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = " ".repeat(indent) + string(e.getKey()) + ":";
            value(e.getValue(), key, indent, out);
        }
    }

    /**
     * {@code lead} is what comes before the value on its line ("key:" or "-"). A top-level key whose value nests
     * containers ({@code inputs}, {@code graph}) gets lines of its own, each input or node one of them; deeper
     * down, whatever fits on a line stays on it.
     */
    private static void value(JsonNode node, String lead, int indent, StringBuilder out) {
        boolean ownLines = indent == 0 && node.isContainerNode() && containsContainer(node);
        if (!node.isContainerNode() || node.isEmpty()
                || !ownLines && lead.length() + 1 + flow(node).length() <= FLOW_WIDTH) {
            out.append(lead).append(' ').append(flow(node)).append('\n');
        } else if (node.isObject()) {
            out.append(lead).append('\n');
            mapping(node, indent + 2, out);
        } else {
            out.append(lead).append('\n');
            for (JsonNode item : node) {
                String dash = " ".repeat(indent + 2) + "-";
                if (item.isObject() && !item.isEmpty() && dash.length() + 1 + flow(item).length() > FLOW_WIDTH) {
                    // "- key: value" then the other keys under it
                    StringBuilder nested = new StringBuilder();
                    mapping(item, indent + 4, nested);
                    out.append(dash).append(' ').append(nested.substring(indent + 4));
                } else {
                    value(item, dash, indent + 2, out);
                }
            }
        }
    }

    private static boolean containsContainer(JsonNode node) {
        for (JsonNode child : node) {
            if (child.isContainerNode()) {
                return true;
            }
        }
        return false;
    }

    /** The node on one line: {@code [1, 2]}, {@code {a: 1, b: [x]}}, or a scalar. */
    static String flow(JsonNode node) {
        if (node.isArray()) {
            StringBuilder s = new StringBuilder("[");
            for (JsonNode item : node) {
                s.append(s.length() > 1 ? ", " : "").append(flow(item));
            }
            return s.append(']').toString();
        }
        if (node.isObject()) {
            StringBuilder s = new StringBuilder("{");
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                s.append(s.length() > 1 ? ", " : "").append(string(e.getKey())).append(": ").append(flow(e.getValue()));
            }
            return s.append('}').toString();
        }
        return scalar(node);
    }

    private static String scalar(JsonNode node) {
        if (node.isNull() || node.isMissingNode()) {
            return "null";
        }
        if (node.isTextual()) {
            return string(node.textValue());
        }
        if (node.isDouble() || node.isFloat() || node.isBigDecimal()) {
            double d = node.doubleValue();
            if (Double.isNaN(d)) {
                return ".nan";
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? ".inf" : "-.inf";
            }
            return Double.toString(d);
        }
        return node.asText(); // integers and booleans
    }

    /**
     * A string as a YAML scalar: plain when that reads back as this very string (not a number, boolean or null);
     * else double-quoted, with what YAML may not hold as it is (C1 controls, U+2028 and U+2029, which it reads as
     * line breaks, a byte-order mark, U+FFFE, U+FFFF, a lone surrogate) as backslash-u escapes besides JSON's.
     */
    public static String string(String s) {
        if (PLAIN.matcher(s).matches() && readsBackAsItself(s)) {
            return s;
        }
        String json = com.fasterxml.jackson.databind.node.TextNode.valueOf(s).toString();
        StringBuilder b = new StringBuilder(json.length());
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            b.append(unprintable(json, i) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }

    /** Whether the char at {@code i} is one YAML may not hold as it is in a double-quoted scalar. */
    private static boolean unprintable(String text, int i) {
        char c = text.charAt(i);
        if (Character.isSurrogate(c)) {
            boolean paired = Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))
                    || Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
            return !paired;
        }
        return c >= 0x7f && c <= 0x9f || c == 0x2028 || c == 0x2029 || c == 0xfeff || c >= 0xfffe;
    }

    private static boolean readsBackAsItself(String s) {
        try {
            JsonNode back = MAPPER.readTree(s);
            return back != null && back.isTextual() && back.textValue().equals(s);
        } catch (IOException e) {
            return false;
        }
    }
}
