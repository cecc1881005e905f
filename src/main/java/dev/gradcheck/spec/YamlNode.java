package dev.gradcheck.spec;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/**
 * A YAML value together with where it starts. Jackson's own tree (JsonNode) forgets positions, and every spec
 * error must point at the offending key or value, so the loader builds this small tree instead.
 */
sealed interface YamlNode permits YamlNode.Scalar, YamlNode.Sequence, YamlNode.Mapping {

    SourcePos pos();

    /** How the node reads in an error message: "string 'abc'", "integer 3", "a list", ... */
    String describe();

    /**
     * A plain value. {@code value} is a String, BigInteger, Double, Boolean or null, per {@code kind};
     * {@code text} is the scalar as written (YAML 1.1 reads {@code yes} as a boolean, so messages show the text).
     */
    record Scalar(SourcePos pos, Kind kind, Object value, String text) implements YamlNode {

        enum Kind {
            STRING, INTEGER, FLOAT, BOOLEAN, NULL,
            /** An alias ({@code *name}); already reported by the reader, so later checks stay quiet about it. */
            ALIAS
        }

        boolean isNumber() {
            return kind == Kind.INTEGER || kind == Kind.FLOAT;
        }

        double asDouble() {
            return kind == Kind.INTEGER ? ((BigInteger) value).doubleValue() : (Double) value;
        }

        @Override
        public String describe() {
            return switch (kind) {
                case STRING -> "string '" + Printable.quoted(text) + "'";
                case INTEGER -> "integer " + text;
                case FLOAT -> "number " + text;
                case BOOLEAN -> "boolean " + text;
                case NULL -> text.isEmpty() ? "nothing" : "null";
                case ALIAS -> "alias *" + Printable.quoted(text);
            };
        }
    }

    record Sequence(SourcePos pos, List<YamlNode> items) implements YamlNode {
        @Override
        public String describe() {
            return "a list";
        }
    }

    /** A mapping; keys are unique (the reader reports and drops repeated keys). */
    record Mapping(SourcePos pos, List<Entry> entries) implements YamlNode {

        Optional<Entry> entry(String key) {
            return entries.stream().filter(e -> e.key().equals(key)).findFirst();
        }

        Optional<YamlNode> get(String key) {
            return entry(key).map(Entry::value);
        }

        @Override
        public String describe() {
            return "a mapping";
        }
    }

    /** One key of a mapping; the key keeps its own position so "unknown key" can point at it. */
    record Entry(String key, SourcePos keyPos, YamlNode value) {}
}
