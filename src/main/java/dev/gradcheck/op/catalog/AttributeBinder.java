package dev.gradcheck.op.catalog;

import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.Suggestions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Maps a spec's named attributes onto an ND4J op's positional arguments, using the names in ND4J's op
 * descriptors: an {@code int} argument named {@code dimension} at index 0 becomes iArg 0, and so on. Every
 * problem is reported at the attribute's own position.
 */
public final class AttributeBinder {

    /**
     * The typed argument lists for one op, ready to add in index order.
     *
     * @param byName     every attribute by name (positional ones too: some ops also keep them in Java properties)
     * @param positional the names among byName that went into the argument lists
     */
    public record Bound(List<Long> ints, List<Double> floats, List<Boolean> bools, List<DType> dtypes,
                 Map<String, Object> byName, java.util.Set<String> positional) {}

    private AttributeBinder() {}

    /**
     * @param properties names of the op class's Java properties, which an attribute may also set
     */
    static Bound bind(String op, List<ArgInfo> args, java.util.Set<String> properties,
                      Map<String, Located<Object>> attrs) throws InvalidSpecException {
        List<SpecError> errors = new ArrayList<>();
        TreeMap<Integer, List<Long>> ints = new TreeMap<>();
        TreeMap<Integer, Double> floats = new TreeMap<>();
        TreeMap<Integer, Boolean> bools = new TreeMap<>();
        TreeMap<Integer, DType> dtypes = new TreeMap<>();
        Map<String, Object> byName = new java.util.LinkedHashMap<>();
        java.util.Set<String> positional = new TreeSet<>();
        for (Map.Entry<String, Located<Object>> e : attrs.entrySet()) {
            String name = e.getKey();
            Located<Object> value = e.getValue();
            ArgInfo arg = args.stream()
                    .filter(a -> a.name().equals(name) && a.kind() != ArgInfo.Kind.INPUT)
                    .findFirst().orElse(null);
            try {
                if (arg == null) {
                    if (!properties.contains(name)) {
                        errors.add(new SpecError(value.pos(), unknown(op, name, args, properties)));
                        continue;
                    }
                    byName.put(name, value.value());
                    continue;
                }
                positional.add(name);
                switch (arg.kind()) {
                    case INT -> {
                        List<Long> list = AttrValues.toLongs(value.value());
                        if (list.size() != 1 && !isLastInt(arg, args)) {
                            throw new IllegalArgumentException("'" + name + "' takes one integer");
                        }
                        ints.put(arg.index(), list);
                        byName.put(name, list.size() == 1 ? list.get(0) : list);
                    }
                    case FLOAT -> {
                        floats.put(arg.index(), AttrValues.toDouble(value.value()));
                        byName.put(name, floats.get(arg.index()));
                    }
                    case BOOL -> {
                        bools.put(arg.index(), AttrValues.toBoolean(value.value()));
                        byName.put(name, bools.get(arg.index()));
                    }
                    case DTYPE -> dtypes.put(arg.index(), AttrValues.toDType(value.value()));
                    default -> throw new IllegalStateException();
                }
            } catch (IllegalArgumentException ex) {
                errors.add(new SpecError(value.pos(), "attribute '" + name + "' of " + op + ": " + ex.getMessage()));
            }
        }
        requireContiguous(op, ints.keySet(), args, ArgInfo.Kind.INT, attrs, errors);
        requireContiguous(op, floats.keySet(), args, ArgInfo.Kind.FLOAT, attrs, errors);
        requireContiguous(op, bools.keySet(), args, ArgInfo.Kind.BOOL, attrs, errors);
        if (!errors.isEmpty()) {
            throw new InvalidSpecException(errors);
        }
        List<Long> flatInts = new ArrayList<>();
        ints.values().forEach(flatInts::addAll);
        return new Bound(flatInts, new ArrayList<>(floats.values()), new ArrayList<>(bools.values()),
                new ArrayList<>(dtypes.values()), byName, positional);
    }

    /** A list of integers (such as reduction dimensions) may only fill the last integer slot. */
    private static boolean isLastInt(ArgInfo arg, List<ArgInfo> args) {
        return args.stream().filter(a -> a.kind() == ArgInfo.Kind.INT).mapToInt(ArgInfo::index).max()
                .orElse(-1) == arg.index();
    }

    /**
     * ND4J reads positional arguments by index and the descriptors carry no defaults, so a later argument
     * cannot be given without the earlier ones of its kind.
     */
    private static void requireContiguous(String op, java.util.Set<Integer> given, List<ArgInfo> args,
                                          ArgInfo.Kind kind, Map<String, Located<Object>> attrs,
                                          List<SpecError> errors) {
        if (given.isEmpty()) {
            return;
        }
        int max = given.stream().mapToInt(Integer::intValue).max().getAsInt();
        List<String> missing = new ArrayList<>();
        for (int i = 0; i <= max; i++) {
            if (!given.contains(i)) {
                final int idx = i;
                args.stream().filter(a -> a.kind() == kind && a.index() == idx).findFirst()
                        .ifPresent(a -> missing.add(a.name()));
            }
        }
        if (!missing.isEmpty()) {
            String last = args.stream().filter(a -> a.kind() == kind && a.index() == max).findFirst()
                    .map(ArgInfo::name).orElse("?");
            Located<Object> at = attrs.get(last);
            errors.add(new SpecError(at.pos(), op + " takes its " + kind.label() + " arguments by position, so '"
                    + last + "' needs " + String.join(", ", missing.stream().map(m -> "'" + m + "'").toList())
                    + " too (order: " + String.join(", ", orderedNames(args, kind)) + ")"));
        }
    }

    private static List<String> orderedNames(List<ArgInfo> args, ArgInfo.Kind kind) {
        return args.stream().filter(a -> a.kind() == kind).sorted(java.util.Comparator.comparingInt(ArgInfo::index))
                .map(ArgInfo::name).toList();
    }

    private static String unknown(String op, String name, List<ArgInfo> args, java.util.Set<String> properties) {
        TreeSet<String> known = new TreeSet<>(properties);
        args.stream().filter(a -> a.kind() != ArgInfo.Kind.INPUT).forEach(a -> known.add(a.name()));
        StringBuilder sb = new StringBuilder("unknown attribute '" + name + "' for op " + op);
        Suggestions.closest(name, known).ifPresent(s -> sb.append(" (did you mean '").append(s).append("'?)"));
        sb.append(known.isEmpty() ? "; it takes no attributes" : "; known: " + String.join(", ", known));
        return sb.toString();
    }
}
