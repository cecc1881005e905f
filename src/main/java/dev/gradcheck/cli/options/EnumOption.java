package dev.gradcheck.cli.options;

import dev.gradcheck.spec.Suggestions;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;

/** An option whose values are an enum's constants in lower case, e.g. {@code --color always}, with "did you mean". */
public final class EnumOption {

    private EnumOption() {}

    public static <E extends Enum<E>> List<String> names(E[] values) {
        return Arrays.stream(values).map(EnumOption::name).toList();
    }

    static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The constant named {@code value} (case and surrounding blanks ignored).
     *
     * @param what what the values are, for the message: "unknown colour mode 'x' (did you mean ...?); valid: ..."
     */
    public static <E extends Enum<E>> E parse(String value, E[] values, String what) {
        for (E e : values) {
            if (name(e).equalsIgnoreCase(value.strip())) {
                return e;
            }
        }
        throw new CommandLine.TypeConversionException("unknown " + what + " '" + value + "'"
                + Suggestions.choices(value, names(values)));
    }
}
