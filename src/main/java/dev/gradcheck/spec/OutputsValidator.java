package dev.gradcheck.spec;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code output}: an output index or name, or a list of them. They are resolved against the op's outputs in op/,
 * so here indexes are kept as their decimal text and every entry keeps its position.
 */
final class OutputsValidator {

    private final ValueReader reader;

    OutputsValidator(ValueReader reader) {
        this.reader = reader;
    }

    List<Located<String>> read(YamlNode node) {
        if (!(node instanceof YamlNode.Sequence s)) {
            return one(node, "output").map(List::of).orElse(List.of());
        }
        if (s.items().isEmpty()) {
            reader.problems.add(node.pos(), "'output' is empty; leave it out to check every floating output");
            return List.of();
        }
        List<Located<String>> outputs = new ArrayList<>();
        for (int i = 0; i < s.items().size(); i++) {
            Optional<Located<String>> out = one(s.items().get(i), ValueReader.element("output", i));
            if (out.isPresent() && outputs.stream().anyMatch(o -> o.value().equals(out.get().value()))) {
                reader.problems.add(out.get().pos(), "output " + out.get().value() + " appears twice");
            } else {
                out.ifPresent(outputs::add);
            }
        }
        return List.copyOf(outputs);
    }

    private Optional<Located<String>> one(YamlNode node, String path) {
        if (node instanceof YamlNode.Scalar s && s.kind() == YamlNode.Scalar.Kind.INTEGER) {
            BigInteger index = (BigInteger) s.value();
            if (index.signum() < 0) {
                reader.problems.add(node.pos(), "output index " + index + " is negative");
                return Optional.empty();
            }
            return Optional.of(new Located<>(index.toString(), node.pos()));
        }
        if (node instanceof YamlNode.Scalar s && s.kind() == YamlNode.Scalar.Kind.STRING && !s.text().isBlank()) {
            return Optional.of(new Located<>(s.text(), node.pos()));
        }
        reader.problems.typeMismatch(node, "an output index or name", path);
        return Optional.empty();
    }
}
