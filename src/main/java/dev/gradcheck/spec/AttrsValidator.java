package dev.gradcheck.spec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code attrs}: named op attributes whose values are scalars or flat lists of scalars. Which names an op takes
 * is op/'s business; here only the shape of the values is checked, and each keeps its position for op/'s errors.
 */
final class AttrsValidator {

    private final ValueReader reader;

    AttrsValidator(ValueReader reader) {
        this.reader = reader;
    }

    /** Attribute name to Long, Double, Boolean, String or List of those, in the order written. */
    Map<String, Located<Object>> read(YamlNode node) {
        return read(node, "attrs", List.of());
    }

    /** The same for the mapping at {@code key}, leaving out the entries named in {@code skip} (read elsewhere). */
    Map<String, Located<Object>> read(YamlNode node, String key, List<String> skip) {
        Optional<YamlNode.Mapping> mapping = reader.mapping(node, key);
        if (mapping.isEmpty()) {
            return Map.of();
        }
        Map<String, Located<Object>> attrs = new LinkedHashMap<>();
        for (YamlNode.Entry e : mapping.get().entries()) {
            if (skip.contains(e.key())) {
                continue;
            }
            String path = ValueReader.child(key, e.key());
            value(e.value(), path).ifPresent(v -> attrs.put(e.key(), new Located<>(v, e.value().pos())));
        }
        return Collections.unmodifiableMap(attrs);
    }

    private Optional<Object> value(YamlNode node, String path) {
        if (node instanceof YamlNode.Sequence s) {
            List<Object> items = new ArrayList<>();
            boolean ok = true;
            for (int i = 0; i < s.items().size(); i++) {
                Optional<Object> item = scalar(s.items().get(i), ValueReader.element(path, i),
                        "a number, boolean or string");
                ok &= item.isPresent();
                item.ifPresent(items::add);
            }
            return ok ? Optional.of(List.copyOf(items)) : Optional.empty();
        }
        return scalar(node, path, "a number, boolean, string or list of those");
    }

    private Optional<Object> scalar(YamlNode node, String path, String expected) {
        if (node instanceof YamlNode.Scalar s) {
            switch (s.kind()) {
                case INTEGER:
                    return reader.integer(node, path).map(v -> v);
                case FLOAT:
                    return Optional.of(s.value());
                case BOOLEAN:
                    return Optional.of(s.value());
                case STRING:
                    return Optional.of(s.text());
                default:
                    break;
            }
        }
        reader.problems.typeMismatch(node, expected, path);
        return Optional.empty();
    }
}
