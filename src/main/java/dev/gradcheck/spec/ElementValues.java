package dev.gradcheck.spec;

import java.util.Optional;

/**
 * Reads one explicit element value (from {@code values:} or {@code constant:}) as the input's dtype allows it:
 * booleans only for bool (as 1/0), whole numbers for integer dtypes, 0/1 for bool, any finite number otherwise.
 */
final class ElementValues {

    private ElementValues() {}

    /**
     * @param dtype     the input's dtype, or null when it is itself invalid (then only "a finite number" is checked)
     * @param inputName for messages
     */
    static Optional<Double> read(YamlNode node, DType dtype, String inputName, String path, ValueReader reader) {
        if (node instanceof YamlNode.Scalar s && s.kind() == YamlNode.Scalar.Kind.BOOLEAN) {
            if (dtype == DType.BOOL) {
                return Optional.of((Boolean) s.value() ? 1.0 : 0.0);
            }
            reader.problems.typeMismatch(node, "a number", path);
            return Optional.empty();
        }
        Optional<Double> value = reader.number(node, path);
        if (value.isEmpty() || dtype == null) {
            return value;
        }
        double v = value.get();
        if (dtype == DType.BOOL && v != 0 && v != 1) {
            reader.problems.add(node.pos(), "value " + text(node) + " in '" + path + "' is not true/false or 1/0, but input '"
                    + inputName + "' is bool");
            return Optional.empty();
        }
        if ((dtype == DType.INT32 || dtype == DType.INT64) && v != Math.rint(v)) {
            reader.problems.add(node.pos(), "value " + text(node) + " in '" + path + "' is not a whole number, but input '"
                    + inputName + "' is " + dtype);
            return Optional.empty();
        }
        return value;
    }

    private static String text(YamlNode node) {
        return node instanceof YamlNode.Scalar s ? s.text() : node.describe();
    }
}
