package dev.gradcheck.cli;

import dev.gradcheck.spec.YamlText;

import dev.gradcheck.op.catalog.ArgInfo;
import dev.gradcheck.op.catalog.OpInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The spec {@code gradcheck new OP} writes: the op's inputs in ND4J's order (from its op descriptor), each with a
 * shape and values, and its named arguments as comments to uncomment. ND4J's descriptors say neither ranks nor
 * defaults, so the shapes are {@link #candidates() tried} on ND4J until one validates.
 *
 * @param op     the op, as the catalog knows it
 * @param name   the spec's name
 * @param inputs the inputs, in order
 */
record SpecTemplate(OpInfo op, String name, List<Input> inputs) implements NewSpec {

    /** The values a floating input is drawn from: where most ops are smooth and defined. */
    static final String INIT = "{uniform: [0.5, 1.5]}";

    /** Descriptor input names that are axes: an int32 scalar 0, never differentiated. */
    private static final Pattern AXIS = Pattern.compile("(?i)axis|axes|dims?|dimensions?|concatDimension");
    /** Descriptor input names that are indices: int32 [0, 1], never differentiated. */
    private static final Pattern INDICES = Pattern.compile("(?i)ind(ex|ices)|ids|idx");
    /** Descriptor input names that give each row of a [3, ...] input a segment or a length: int32 [0, 1, 2]. */
    private static final Pattern PER_ROW = Pattern.compile("(?i)idxSegments|segmentIds|seqLengths");
    /** Descriptor input names that count segments: int32 3, as many as the rows. */
    private static final Pattern COUNT = Pattern.compile("(?i)numSegments");

    /**
     * One input of the spec.
     *
     * @param name  its name (ND4J's, or {@code x} when the descriptor names none)
     * @param shape its shape, or null for an integer input (an axis or indices), whose value is fixed
     */
    record Input(String name, List<Integer> shape) {

        boolean integer() {
            return shape == null;
        }

        String yaml() {
            if (AXIS.matcher(name).matches()) {
                return "{shape: [], dtype: int32, init: {values: 0}}";
            }
            if (INDICES.matcher(name).matches()) {
                return "{shape: [2], dtype: int32, init: {values: [0, 1]}}";
            }
            if (PER_ROW.matcher(name).matches()) {
                return "{shape: [3], dtype: int32, init: {values: [0, 1, 2]}}";
            }
            if (COUNT.matcher(name).matches()) {
                return "{shape: [], dtype: int32, init: {values: 3}}";
            }
            return "{shape: " + shape + ", init: " + INIT + "}";
        }
    }

    /** The op's input names in ND4J's order, each once; {@code x} for an op whose descriptor names none. */
    static List<String> inputNames(OpInfo op) {
        List<String> names = new ArrayList<>();
        op.args().stream().filter(a -> a.kind() == ArgInfo.Kind.INPUT).forEach(a -> {
            String n = a.name().replaceAll("[^A-Za-z0-9_]", "");
            n = n.isEmpty() ? "in" + (a.index() + 1) : n;
            names.add(names.contains(n) ? n + (a.index() + 1) : n);
        });
        return names.isEmpty() ? List.of("x") : names;
    }

    /** Whether ND4J's descriptor names this input as an integer one (an axis or indices). */
    static boolean integerInput(String name) {
        return Stream.of(AXIS, INDICES, PER_ROW, COUNT).anyMatch(p -> p.matcher(name).matches());
    }

    /**
     * The specs to try, most likely first: every input, then fewer (a descriptor lists optional inputs too), each
     * with floating inputs all [3, 4], chained as a product needs ([3, 4], [4, 5]), a matrix and vectors, rank 4,
     * square.
     */
    static List<SpecTemplate> candidates(OpInfo op, String name) {
        List<String> names = inputNames(op);
        List<SpecTemplate> all = new ArrayList<>();
        for (int k = names.size(); k >= 1; k--) {
            List<String> used = names.subList(0, k);
            for (ShapePattern pattern : ShapePattern.values()) {
                SpecTemplate t = new SpecTemplate(op, name, pattern.apply(used));
                if (!all.contains(t)) {
                    all.add(t);
                }
            }
        }
        return all;
    }

    /** The given shapes for the floating inputs in order (the last one repeated), integer inputs as always. */
    static SpecTemplate withShapes(OpInfo op, String name, List<List<Integer>> shapes) {
        List<Input> inputs = new ArrayList<>();
        int f = 0;
        for (String n : inputNames(op)) {
            if (integerInput(n)) {
                inputs.add(new Input(n, null));
            } else {
                inputs.add(new Input(n, shapes.get(Math.min(f++, shapes.size() - 1))));
            }
        }
        return new SpecTemplate(op, name, inputs);
    }

    /** Ways to shape the floating inputs of one try. */
    private enum ShapePattern {
        SAME, CHAIN, MATRIX_AND_VECTORS, RANK4, SQUARE;

        List<Input> apply(List<String> names) {
            List<Input> inputs = new ArrayList<>();
            int f = 0;
            for (String n : names) {
                inputs.add(integerInput(n) ? new Input(n, null) : new Input(n, shape(f++)));
            }
            return inputs;
        }

        private List<Integer> shape(int i) {
            return switch (this) {
                case SAME -> List.of(3, 4);
                case CHAIN -> List.of(3 + i, 4 + i);
                case MATRIX_AND_VECTORS -> i == 0 ? List.of(3, 4) : List.of(4);
                case RANK4 -> List.of(2, 3, 4, 5);
                case SQUARE -> List.of(4, 4);
            };
        }
    }

    @Override
    public String yaml(String note) {
        StringBuilder y = new StringBuilder();
        y.append("# A spec for ").append(op.name()).append(", written by `gradcheck new ").append(op.name())
                .append("`. Change what the comments say, then\n# `gradcheck validate FILE` and `gradcheck check FILE`."
                        + " Every key: `gradcheck docs spec-format`.\n");
        if (note != null) {
            y.append("# ").append(note).append('\n');
        }
        // quoted as YAML needs it: `x # y`, `on`, `123`, `k: v` or a line break read back as another name or none
        y.append("name: ").append(YamlText.string(name)).append("   # unique among the specs checked together\n");
        y.append("op: ").append(op.name()).append('\n');
        attributes(y);
        y.append("inputs:   # in ND4J's order (").append(String.join(", ", inputNames(op)))
                .append("); the names are yours, the order is ND4J's\n");
        for (Input in : inputs) {
            y.append("  ").append(in.name()).append(": ").append(in.yaml());
            y.append(in.integer() ? "   # an integer input: not differentiated\n"
                    : "   # the shape and the values it is checked at\n");
        }
        y.append("# tolerance: {max_relative_error: 1.0e-6}   # float64's default; float32 needs looser"
                + " (docs/checking.md)\n");
        y.append("# mode: fast                                # one projection per block instead of every entry\n");
        y.append("# expect: fail                              # a known ND4J bug, kept visible\n");
        y.append("# reason: what is wrong, and where it was reported\n");
        return y.toString();
    }

    /** The op's named arguments as comments: each once, with its kind and position, a neutral value to change. */
    private void attributes(StringBuilder y) {
        Map<String, List<ArgInfo>> byName = new LinkedHashMap<>();
        op.args().stream().filter(a -> a.kind() != ArgInfo.Kind.INPUT)
                .forEach(a -> byName.computeIfAbsent(a.name(), k -> new ArrayList<>()).add(a));
        if (byName.isEmpty()) {
            return;
        }
        y.append("# attrs:   # ND4J's named arguments (`gradcheck list-ops ").append(op.name())
                .append("`); none set: the kernel's own defaults.\n#          Uncomment to set; a later argument"
                        + " needs every earlier one of its kind.\n");
        byName.forEach((n, args) -> y.append("#   ").append(n).append(": ").append(neutral(args.get(0).kind()))
                .append("   # ").append(String.join(" or ", args.stream().map(a -> a.kind().label() + " "
                        + a.index()).toList())).append('\n'));
    }

    private static String neutral(ArgInfo.Kind kind) {
        return switch (kind) {
            case INT -> "0";
            case FLOAT -> "0.0";
            case BOOL -> "false";
            case DTYPE -> "float64";
            default -> "null";
        };
    }
}
