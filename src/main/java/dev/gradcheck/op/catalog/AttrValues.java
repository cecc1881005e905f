package dev.gradcheck.op.catalog;

import dev.gradcheck.spec.DType;
import java.util.ArrayList;
import java.util.List;

/** Conversions of YAML attribute values to the argument types ND4J takes; each failure says what was expected. */
public final class AttrValues {

    private AttrValues() {}

    public static List<Long> toLongs(Object v) {
        List<Long> out = new ArrayList<>();
        if (v instanceof List<?> list) {
            for (Object o : list) {
                out.add(toLong(o));
            }
        } else {
            out.add(toLong(v));
        }
        return out;
    }

    public static long toLong(Object v) {
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Double d && d == Math.rint(d)) {
            return d.longValue();
        }
        throw new IllegalArgumentException("expected an integer, got " + describe(v));
    }

    public static double toDouble(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        throw new IllegalArgumentException("expected a number, got " + describe(v));
    }

    public static boolean toBoolean(Object v) {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Long l && (l == 0 || l == 1)) {
            return l == 1;
        }
        throw new IllegalArgumentException("expected true or false, got " + describe(v));
    }

    static DType toDType(Object v) {
        if (v instanceof String s) {
            return DType.bySpecName(s).orElseThrow(() -> new IllegalArgumentException("unknown dtype '" + s + "'"));
        }
        throw new IllegalArgumentException("expected a dtype name, got " + describe(v));
    }

    static String describe(Object v) {
        if (v instanceof String s) {
            return "string '" + s + "'";
        }
        if (v instanceof List<?>) {
            return "a list " + v;
        }
        return v == null ? "nothing" : v.toString();
    }
}
