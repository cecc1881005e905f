package dev.gradcheck.result;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A closed vocabulary whose constants are written the same way in specs, on the command line and in reports
 * ({@link Mode}, {@link Stencil}, {@link Engine}): the enum is the only list of names, so validation, option
 * converters and help texts derive from it and cannot fall out of step with the code that acts on it.
 */
public interface Named {

    /** The name users write: lower case, words joined by '-'. */
    String specName();

    /** The constant named {@code text} exactly, if any. */
    static <E extends Enum<E> & Named> Optional<E> parse(Class<E> type, String text) {
        return Arrays.stream(type.getEnumConstants()).filter(e -> e.specName().equals(text)).findFirst();
    }

    /** Every constant's name, in declaration order. */
    static <E extends Enum<E> & Named> List<String> names(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Named::specName).toList();
    }

    /** The usual spelling of a constant's name: lower case, '_' as '-'. */
    static String of(Enum<?> constant) {
        return constant.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
