package dev.gradcheck.spec;

import java.util.Map;

/**
 * The op and attributes an invalid one-op document names, as far as they could be read: kept so that the op's name
 * and attributes are checked against the op catalog in the same pass as the document's other problems (a user
 * fixes a spec in one round, not one round for the keys and another for the op).
 *
 * @param op    the {@code op:} value where it was written
 * @param attrs the attributes that could be read, each at its value
 */
public record NamedOp(Located<String> op, Map<String, Located<Object>> attrs) {

    public NamedOp {
        attrs = Map.copyOf(attrs);
    }
}
