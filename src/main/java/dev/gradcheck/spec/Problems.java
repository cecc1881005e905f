package dev.gradcheck.spec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Collects every error of one document, so a user fixes a spec in one round instead of one error per run. */
final class Problems {

    private final List<SpecError> errors = new ArrayList<>();

    void add(SourcePos pos, String message) {
        errors.add(new SpecError(pos, message));
    }

    void addAll(List<SpecError> more) {
        errors.addAll(more);
    }

    /** "expected a number for 'delta', got string 'abc'", at the value. */
    void typeMismatch(YamlNode node, String expected, String path) {
        if (node instanceof YamlNode.Scalar s && s.kind() == YamlNode.Scalar.Kind.ALIAS) {
            return; // the reader already said aliases are not supported
        }
        add(node.pos(), "expected " + expected + " for '" + path + "', got " + node.describe());
    }

    int count() {
        return errors.size();
    }

    boolean isEmpty() {
        return errors.isEmpty();
    }

    /** In file order: validation visits keys by meaning, but people read errors top to bottom. */
    List<SpecError> sorted() {
        List<SpecError> copy = new ArrayList<>(errors);
        copy.sort(Comparator.comparingInt((SpecError e) -> e.pos().line()).thenComparingInt(e -> e.pos().col()));
        return List.copyOf(copy);
    }
}
