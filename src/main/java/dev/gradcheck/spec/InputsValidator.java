package dev.gradcheck.spec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code inputs}: a non-empty mapping of input name to {shape, dtype, init}. */
final class InputsValidator {

    /** {@code error_clip} is read by GraphValidator: only a graph spec gives an input's gradient a clip. */
    static final List<String> KEYS = List.of("shape", "dtype", "init", "error_clip");

    private static final List<String> DTYPE_NAMES = Arrays.stream(DType.values()).map(DType::specName).toList();

    /**
     * @param names    every input name written, in order, valid or not (check/no_grad are resolved against these)
     * @param dtypes   the dtype of every input whose dtype is valid (written or defaulted)
     * @param specs    the inputs that validated completely
     * @param complete whether every input validated (otherwise "nothing to check" would only be noise)
     * @param empty    inputs whose shape has a 0 dimension (no elements), with where their shape is written
     */
    record Result(List<String> names, Map<String, DType> dtypes, List<InputSpec> specs, boolean complete,
                  Map<String, Located<long[]>> empty) {
        static final Result NONE = new Result(List.of(), Map.of(), List.of(), false, Map.of());
    }

    private final ValueReader reader;

    InputsValidator(ValueReader reader) {
        this.reader = reader;
    }

    Result read(YamlNode node) {
        Optional<YamlNode.Mapping> mapping = reader.mapping(node, "inputs");
        if (mapping.isEmpty()) {
            return Result.NONE;
        }
        if (mapping.get().entries().isEmpty()) {
            reader.problems.add(node.pos(), "'inputs' must name at least one input");
            return Result.NONE;
        }
        List<String> names = new ArrayList<>();
        Map<String, DType> dtypes = new LinkedHashMap<>();
        List<InputSpec> specs = new ArrayList<>();
        Map<String, Located<long[]>> empty = new LinkedHashMap<>();
        for (YamlNode.Entry e : mapping.get().entries()) {
            names.add(e.key());
            readInput(e, dtypes, empty).ifPresent(specs::add);
        }
        return new Result(List.copyOf(names), Map.copyOf(dtypes), List.copyOf(specs), specs.size() == names.size(),
                Map.copyOf(empty));
    }

    private Optional<InputSpec> readInput(YamlNode.Entry entry, Map<String, DType> dtypes,
                                          Map<String, Located<long[]>> empty) {
        String name = entry.key();
        String path = ValueReader.child("inputs", name);
        if (entry.value() instanceof YamlNode.Sequence) {
            // The likeliest slip: writing the shape straight under the input's name.
            reader.problems.add(entry.value().pos(), "expected a mapping for '" + path + "', got a list "
                    + "(an input reads {shape: [...], dtype: ..., init: ...})");
            return Optional.empty();
        }
        Optional<YamlNode.Mapping> mapping = reader.mapping(entry.value(), path);
        if (mapping.isEmpty()) {
            return Optional.empty();
        }
        YamlNode.Mapping m = mapping.get();
        int before = reader.problems.count();
        reader.rejectUnknownKeys(m, KEYS, path);

        long[] shape = m.get("shape").map(n -> shape(n, ValueReader.child(path, "shape"))).orElse(null);
        if (m.get("shape").isEmpty()) {
            reader.problems.add(entry.keyPos(), "input '" + name + "' is missing required key 'shape'");
        } else if (shape != null && MemoryBudget.length(shape) == 0 && shape.length > 0) {
            empty.put(name, new Located<>(shape, m.get("shape").get().pos()));
        }
        DType dtype = m.get("dtype").map(n -> dtype(n, ValueReader.child(path, "dtype"))).orElse(DType.FLOAT64);
        if (dtype != null) {
            dtypes.put(name, dtype);
        }
        Init init = m.get("init")
                .map(n -> new InitValidator(reader).read(n, shape, dtype, name, ValueReader.child(path, "init"))
                        .orElse(null))
                .orElse(InitValidator.DEFAULT);
        if (reader.problems.count() > before || shape == null || dtype == null || init == null) {
            return Optional.empty();
        }
        return Optional.of(new InputSpec(name, shape, dtype, init, entry.keyPos()));
    }

    /** A list of non-negative integers; null (after reporting) when invalid. */
    private long[] shape(YamlNode node, String path) {
        Optional<YamlNode.Sequence> seq = reader.sequence(node, path);
        if (seq.isEmpty()) {
            return null;
        }
        List<YamlNode> items = seq.get().items();
        if (items.size() > CheckOptions.MAX_RANK) {
            reader.problems.add(node.pos(), "shape has " + items.size() + " dimensions; ND4J's arrays have at most "
                    + CheckOptions.MAX_RANK);
            return null;
        }
        long[] dims = new long[items.size()];
        boolean ok = true;
        for (int i = 0; i < dims.length; i++) {
            Optional<Long> d = reader.integer(items.get(i), ValueReader.element(path, i));
            if (d.isPresent() && d.get() < 0) {
                reader.problems.add(items.get(i).pos(), "dimension " + d.get() + " in '" + path + "' is negative");
                d = Optional.empty();
            }
            ok &= d.isPresent();
            dims[i] = d.orElse(0L);
        }
        if (ok && MemoryBudget.length(dims) != 0 && overflows(dims)) { // a 0 dimension: no elements at all
            reader.problems.add(node.pos(), "shape " + NestedValues.format(dims) + " has too many elements");
            ok = false;
        }
        return ok ? dims : null;
    }

    private static boolean overflows(long[] dims) {
        try {
            long n = 1;
            for (long d : dims) {
                n = Math.multiplyExact(n, d);
            }
            return false;
        } catch (ArithmeticException e) {
            return true;
        }
    }

    private DType dtype(YamlNode node, String path) {
        Optional<String> name = reader.string(node, path);
        if (name.isEmpty()) {
            return null;
        }
        Optional<DType> dtype = DType.bySpecName(name.get());
        if (dtype.isEmpty()) {
            reader.problems.add(node.pos(), "unknown dtype '" + name.get() + "'"
                    + Suggestions.choices(name.get(), DTYPE_NAMES));
            return null;
        }
        return dtype.get();
    }
}
