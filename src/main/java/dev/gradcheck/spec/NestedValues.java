package dev.gradcheck.spec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code init: {values: ...}}: nested lists whose nesting and lengths must match the declared shape exactly,
 * flattened in row-major order. A scalar shape {@code []} takes a plain number.
 */
final class NestedValues {

    private final ValueReader reader;
    private final DType dtype;
    private final String inputName;

    private NestedValues(ValueReader reader, DType dtype, String inputName) {
        this.reader = reader;
        this.dtype = dtype;
        this.inputName = inputName;
    }

    /**
     * @param declared the input's shape, or null when that is itself invalid (then only the elements are checked)
     * @param dtype    the input's dtype, or null when invalid
     */
    static Optional<double[]> flatten(YamlNode node, long[] declared, DType dtype, String inputName, String path,
            ValueReader reader) {
        return new NestedValues(reader, dtype, inputName).flatten(node, declared, path);
    }

    private Optional<double[]> flatten(YamlNode node, long[] declared, String path) {
        int before = reader.problems.count();
        // The first element of every level fixes the shape the rest must follow.
        List<Long> shape = inferShape(node);
        boolean rectangular = checkRectangular(node, shape, 0, path);
        if (rectangular && declared != null && !sameShape(shape, declared)) {
            reader.problems.add(node.pos(), "values have shape " + shape + " but shape is " + format(declared));
        }
        List<Double> flat = new ArrayList<>();
        collect(node, path, flat);
        if (reader.problems.count() > before) {
            return Optional.empty();
        }
        return Optional.of(flat.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static List<Long> inferShape(YamlNode node) {
        List<Long> shape = new ArrayList<>();
        while (node instanceof YamlNode.Sequence s) {
            shape.add((long) s.items().size());
            if (s.items().isEmpty()) {
                break;
            }
            node = s.items().get(0);
        }
        return shape;
    }

    /** Reports the first place where nesting or a length departs from the first row's; one such error suffices. */
    private boolean checkRectangular(YamlNode node, List<Long> shape, int depth, String path) {
        if (depth == shape.size()) {
            if (node instanceof YamlNode.Sequence) {
                reader.problems.add(node.pos(), "values are not rectangular: expected a number at '" + path
                        + "' (like the first row), got a list");
                return false;
            }
            return true; // mappings and strings are reported as element type errors
        }
        long expected = shape.get(depth);
        if (!(node instanceof YamlNode.Sequence s) || s.items().size() != expected) {
            String got = node instanceof YamlNode.Sequence s2 ? "a list of " + s2.items().size() : node.describe();
            reader.problems.add(node.pos(), "values are not rectangular: expected a list of " + expected + " at '"
                    + path + "' (like the first row), got " + got);
            return false;
        }
        for (int i = 0; i < s.items().size(); i++) {
            if (!checkRectangular(s.items().get(i), shape, depth + 1, ValueReader.element(path, i))) {
                return false;
            }
        }
        return true;
    }

    /** Row-major: a depth-first walk of the nested lists visits elements in C order. */
    private void collect(YamlNode node, String path, List<Double> flat) {
        if (node instanceof YamlNode.Sequence s) {
            for (int i = 0; i < s.items().size(); i++) {
                collect(s.items().get(i), ValueReader.element(path, i), flat);
            }
            return;
        }
        ElementValues.read(node, dtype, inputName, path, reader).ifPresent(flat::add);
    }

    private static boolean sameShape(List<Long> shape, long[] declared) {
        if (shape.size() != declared.length) {
            return false;
        }
        for (int i = 0; i < declared.length; i++) {
            if (shape.get(i) != declared[i]) {
                return false;
            }
        }
        return true;
    }

    static String format(long[] shape) {
        return Arrays.toString(shape);
    }
}
