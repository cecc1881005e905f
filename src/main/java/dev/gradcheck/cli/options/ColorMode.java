package dev.gradcheck.cli.options;

import java.util.Iterator;
import java.util.Map;
import picocli.CommandLine;

/**
 * {@code --color auto|always|never}: whether the table's status labels are coloured. The first rule that applies
 * decides:
 * <ol>
 *   <li>{@code --color always} or {@code --color never} (and {@code --no-color}, the same as never);</li>
 *   <li>{@code NO_COLOR} set to anything but the empty string: no colour (no-color.org);</li>
 *   <li>{@code FORCE_COLOR} set to anything but the empty string, {@code 0} or {@code false}: colour
 *       (force-color.org), e.g. for CI logs that render ANSI codes;</li>
 *   <li>auto: colour when the report goes to a terminal (stdout, not {@code --output}) whose TERM is not dumb.</li>
 * </ol>
 * The command line wins over the environment, and a user's NO_COLOR over a CI's FORCE_COLOR, as pytest does.
 */
public enum ColorMode {
    AUTO, ALWAYS, NEVER;


    /**
     * @param reportTerminal the report goes to a terminal
     * @param env            the environment (NO_COLOR, FORCE_COLOR, TERM)
     */
    public boolean colors(boolean reportTerminal, Map<String, String> env) {
        if (this != AUTO) {
            return this == ALWAYS;
        }
        if (set(env.get("NO_COLOR"))) {
            return false;
        }
        String force = env.get("FORCE_COLOR");
        if (set(force)) {
            return !force.strip().equals("0") && !force.strip().equalsIgnoreCase("false");
        }
        String term = env.get("TERM");
        return reportTerminal && term != null && !term.isBlank() && !term.equals("dumb");
    }

    private static boolean set(String value) {
        return value != null && !value.isEmpty();
    }

    static final class Converter implements CommandLine.ITypeConverter<ColorMode> {
        @Override
        public ColorMode convert(String value) {
            return EnumOption.parse(value, values(), "colour mode");
        }
    }

    /** --color's values for help texts and completion. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return EnumOption.names(values()).iterator();
        }
    }
}
