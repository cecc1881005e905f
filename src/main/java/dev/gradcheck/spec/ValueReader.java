package dev.gradcheck.spec;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/**
 * Typed reads of tree nodes. Each read either returns the value or records a type error at the node and returns
 * empty, so callers just skip what they cannot use and validation goes on collecting errors.
 * {@code path} names the value in messages, e.g. {@code inputs.x.shape}.
 */
final class ValueReader {

    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    final Problems problems;

    ValueReader(Problems problems) {
        this.problems = problems;
    }

    Optional<YamlNode.Mapping> mapping(YamlNode node, String path) {
        if (node instanceof YamlNode.Mapping m) {
            return Optional.of(m);
        }
        problems.typeMismatch(node, "a mapping", path);
        return Optional.empty();
    }

    Optional<YamlNode.Sequence> sequence(YamlNode node, String path) {
        if (node instanceof YamlNode.Sequence s) {
            return Optional.of(s);
        }
        problems.typeMismatch(node, "a list", path);
        return Optional.empty();
    }

    Optional<String> string(YamlNode node, String path) {
        if (node instanceof YamlNode.Scalar s && s.kind() == YamlNode.Scalar.Kind.STRING) {
            return Optional.of(s.text());
        }
        problems.typeMismatch(node, "a string", path);
        return Optional.empty();
    }

    Optional<Boolean> bool(YamlNode node, String path) {
        if (node instanceof YamlNode.Scalar s && s.kind() == YamlNode.Scalar.Kind.BOOLEAN) {
            return Optional.of((Boolean) s.value());
        }
        problems.typeMismatch(node, "true or false", path);
        return Optional.empty();
    }

    /** A non-empty string. */
    Optional<String> text(YamlNode node, String path) {
        Optional<String> s = string(node, path);
        if (s.isPresent() && s.get().isBlank()) {
            problems.add(node.pos(), "'" + path + "' must not be empty");
            return Optional.empty();
        }
        return s;
    }

    /**
     * A name referring to something else in the spec (an input, an output). Any scalar's text is accepted, because
     * YAML reads a key {@code on:} as the string "on" but a list item {@code on} as a boolean.
     */
    Optional<String> name(YamlNode node, String path) {
        if (node instanceof YamlNode.Scalar s && s.kind() != YamlNode.Scalar.Kind.NULL
                && s.kind() != YamlNode.Scalar.Kind.ALIAS) {
            return Optional.of(s.text());
        }
        problems.typeMismatch(node, "a name", path);
        return Optional.empty();
    }

    /** A finite number; integers are accepted where decimals are. */
    Optional<Double> number(YamlNode node, String path) {
        if (node instanceof YamlNode.Scalar s && s.isNumber()) {
            double value = s.asDouble();
            if (Double.isFinite(value)) {
                return Optional.of(value);
            }
            problems.add(node.pos(), "expected a finite number for '" + path + "', got " + s.text());
            return Optional.empty();
        }
        problems.typeMismatch(node, "a number", path);
        return Optional.empty();
    }

    Optional<Long> integer(YamlNode node, String path) {
        if (node instanceof YamlNode.Scalar s && s.kind() == YamlNode.Scalar.Kind.INTEGER) {
            BigInteger value = (BigInteger) s.value();
            if (value.compareTo(LONG_MIN) >= 0 && value.compareTo(LONG_MAX) <= 0) {
                return Optional.of(value.longValue());
            }
            problems.add(node.pos(), "integer " + s.text() + " for '" + path + "' is out of range");
            return Optional.empty();
        }
        problems.typeMismatch(node, "an integer", path);
        return Optional.empty();
    }

    /** Reports keys not in {@code allowed}, with the closest allowed key as a suggestion. */
    void rejectUnknownKeys(YamlNode.Mapping mapping, List<String> allowed, String where) {
        for (YamlNode.Entry e : mapping.entries()) {
            if (!allowed.contains(e.key())) {
                String in = where.isEmpty() ? "" : " in '" + where + "'";
                problems.add(e.keyPos(), "unknown key '" + e.key() + "'" + in
                        + Suggestions.hint(e.key(), allowed, "allowed"));
            }
        }
    }

    static String child(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    static String element(String path, int index) {
        return path + "[" + index + "]";
    }
}
