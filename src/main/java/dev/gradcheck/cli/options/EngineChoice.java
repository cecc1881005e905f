package dev.gradcheck.cli.options;

import dev.gradcheck.result.Engine;
import dev.gradcheck.spec.Suggestions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;

/**
 * {@code --backend}: the engines that run every spec, overriding the specs' own {@code backends:}. An engine's
 * name, or {@value #ALL} for every engine (which also compares them).
 */
public record EngineChoice(List<Engine> engines) {

    static final String ALL = "all";

    static EngineChoice all() {
        return new EngineChoice(List.of(Engine.values()));
    }

    /** Case does not matter: {@code --backend CPU} is what some users type. */
    public static final class Converter implements CommandLine.ITypeConverter<EngineChoice> {
        @Override
        public EngineChoice convert(String value) {
            String name = value.toLowerCase(Locale.ROOT);
            if (name.equals(ALL)) {
                return all();
            }
            return Engine.fromSpecName(name).map(e -> new EngineChoice(List.of(e))).orElseThrow(
                    () -> new CommandLine.TypeConversionException("unknown backend '" + value + "'"
                            + Suggestions.choices(value, names())));
        }
    }

    /** The values --backend takes, for help texts, completion and errors: every engine's name, then "all". */
    public static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return names().iterator();
        }
    }

    static List<String> names() {
        List<String> names = new ArrayList<>(Engine.specNames());
        names.add(ALL);
        return names;
    }
}
