package dev.gradcheck.op.catalog;

import java.util.List;
import java.util.Set;

/**
 * What a spec's {@code attrs} may set on one ND4J op, as the op catalog recorded it: arguments by position, and
 * Java properties by name.
 *
 * @param positional the arguments {@link AttributeBinder} maps onto the op's positional lists: all of a custom
 *                   op's, a legacy reduction's dimensions (and a variance's bias correction), a scalar op's scalar
 * @param properties the names of the op class's Java properties, which an attribute may also set
 */
public record OpBinding(List<ArgInfo> positional, Set<String> properties) {

    public OpBinding {
        positional = List.copyOf(positional);
        properties = Set.copyOf(properties);
    }
}
