package dev.gradcheck.spec;

import java.util.List;
import java.util.Optional;

/** {@code inputs.<x>.init}: exactly one of uniform, normal, values, constant, range. */
final class InitValidator {

    static final List<String> KINDS = List.of("uniform", "normal", "values", "constant", "range");

    static final Init DEFAULT = new Init.Uniform(-1, 1);

    private final ValueReader reader;

    InitValidator(ValueReader reader) {
        this.reader = reader;
    }

    /**
     * @param shape the input's shape, or null when invalid
     * @param dtype the input's dtype, or null when invalid
     */
    Optional<Init> read(YamlNode node, long[] shape, DType dtype, String inputName, String path) {
        Optional<YamlNode.Mapping> mapping = reader.mapping(node, path);
        if (mapping.isEmpty()) {
            return Optional.empty();
        }
        YamlNode.Mapping m = mapping.get();
        reader.rejectUnknownKeys(m, KINDS, path);
        List<YamlNode.Entry> known = m.entries().stream().filter(e -> KINDS.contains(e.key())).toList();
        if (known.isEmpty()) {
            if (m.entries().isEmpty()) { // unknown keys were reported already; do not pile on
                reader.problems.add(m.pos(), "'" + path + "' needs one of " + String.join(", ", KINDS));
            }
            return Optional.empty();
        }
        if (known.size() > 1) {
            reader.problems.add(known.get(1).keyPos(), "'" + path + "' takes exactly one of " + String.join(", ", KINDS)
                    + ", got both '" + known.get(0).key() + "' and '" + known.get(1).key() + "'");
            return Optional.empty();
        }
        YamlNode.Entry entry = known.get(0);
        String p = ValueReader.child(path, entry.key());
        YamlNode value = entry.value();
        return switch (entry.key()) {
            case "uniform" -> pair(value, p, "[low, high]").flatMap(lh -> uniform(lh, value, p));
            case "normal" -> pair(value, p, "[mean, std]").flatMap(ms -> normal(ms, value, p));
            case "range" -> pair(value, p, "[start, step]").map(ss -> new Init.Range(ss[0], ss[1]));
            case "constant" -> ElementValues.read(value, dtype, inputName, p, reader).map(Init.Constant::new);
            case "values" -> NestedValues.flatten(value, shape, dtype, inputName, p, reader).map(Init.Values::new);
            default -> throw new IllegalStateException(entry.key()); // filtered to KINDS above
        };
    }

    private Optional<Init> uniform(double[] lowHigh, YamlNode node, String path) {
        if (!(lowHigh[0] < lowHigh[1])) {
            reader.problems.add(node.pos(), "'" + path + "' needs low < high, got [" + num(lowHigh[0]) + ", "
                    + num(lowHigh[1]) + "]");
            return Optional.empty();
        }
        return Optional.of(new Init.Uniform(lowHigh[0], lowHigh[1]));
    }

    private Optional<Init> normal(double[] meanStd, YamlNode node, String path) {
        if (!(meanStd[1] > 0)) {
            reader.problems.add(node.pos(), "'" + path + "' needs std > 0, got " + num(meanStd[1]));
            return Optional.empty();
        }
        return Optional.of(new Init.Normal(meanStd[0], meanStd[1]));
    }

    /** A two-number list such as {@code [low, high]}. */
    private Optional<double[]> pair(YamlNode node, String path, String form) {
        if (!(node instanceof YamlNode.Sequence s) || s.items().size() != 2) {
            String got = node instanceof YamlNode.Sequence s2 ? "a list of " + s2.items().size() : node.describe();
            reader.problems.add(node.pos(), "expected " + form + " for '" + path + "', got " + got);
            return Optional.empty();
        }
        Optional<Double> a = reader.number(s.items().get(0), ValueReader.element(path, 0));
        Optional<Double> b = reader.number(s.items().get(1), ValueReader.element(path, 1));
        if (a.isEmpty() || b.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new double[] {a.get(), b.get()});
    }

    /** 2.0 reads as 2 in messages, as the user most likely wrote it. */
    private static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
