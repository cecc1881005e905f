package dev.gradcheck.junit;

import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Mode;
import dev.gradcheck.spec.CheckOptions;
import dev.gradcheck.spec.Overrides;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * What a CI run sets for the engine, from the JUnit Platform's configuration parameters
 * ({@code junit-platform.properties}, {@code -D} system properties, or a launcher's own): the same settings as
 * {@code gradcheck check}'s options of the same names. docs/library-api.md lists them.
 *
 * @param mode    {@value #MODE}: the checking mode for every spec, or null for each spec's own
 * @param threads {@value #THREADS}: threads evaluating one check, or null for the default
 * @param jobs    {@value #JOBS}: worker JVMs checking side by side (default 1)
 * @param plugins {@value #PLUGINS}: plugin jars or class directories, comma-separated
 * @param timeout {@value #TIMEOUT}: one check's time limit in seconds, or null for the spec's or the built-in one
 * @param engines {@value #BACKEND}: cpu, cuda or all for every spec, or null for each spec's own backends
 */
record EngineSettings(Mode mode, Integer threads, int jobs, List<Path> plugins, Double timeout,
                      List<Engine> engines) {

    static final String MODE = "gradcheck.mode";
    static final String THREADS = "gradcheck.threads";
    static final String JOBS = "gradcheck.jobs";
    static final String PLUGINS = "gradcheck.plugins";
    static final String TIMEOUT = "gradcheck.timeout";
    static final String BACKEND = "gradcheck.backend";

    /** A setting that cannot be used: its key, value and why, as the failure every test of the run shows. */
    static final class Invalid extends Exception {
        Invalid(String key, String value, String why) {
            super("gradcheck: configuration parameter " + key + "=" + value + ": " + why, null, false, false);
        }
    }

    static EngineSettings from(ConfigurationParameters parameters) throws Invalid {
        Mode mode = parse(parameters, MODE, v -> Mode.fromSpecName(v).orElse(null),
                "unknown mode; one of " + String.join(", ", Mode.specNames()));
        Integer threads = parse(parameters, THREADS, v -> wholeIn(v, 1, CheckOptions.MAX_THREADS),
                "must be a whole number from 1 to " + CheckOptions.MAX_THREADS);
        Integer jobs = parse(parameters, JOBS, v -> wholeIn(v, 1, Integer.MAX_VALUE), "must be a whole number above 0");
        Double timeout = parse(parameters, TIMEOUT, EngineSettings::positive, "must be a number of seconds above 0");
        List<Engine> engines = parse(parameters, BACKEND, EngineSettings::engines,
                "unknown backend; one of " + String.join(", ", Engine.specNames()) + ", all");
        List<Path> plugins = parameters.get(PLUGINS).map(EngineSettings::paths).orElse(List.of());
        return new EngineSettings(mode, threads, jobs == null ? 1 : jobs, plugins, timeout, engines);
    }

    /** The settings that win over each spec's own. */
    Overrides overrides() {
        return new Overrides(mode, null, null, null, null, null, null, threads);
    }

    private static <T> T parse(ConfigurationParameters parameters, String key, Function<String, T> reader,
                               String why) throws Invalid {
        Optional<String> value = parameters.get(key).map(String::trim).filter(v -> !v.isEmpty());
        if (value.isEmpty()) {
            return null;
        }
        T read = reader.apply(value.get());
        if (read == null) {
            throw new Invalid(key, value.get(), why);
        }
        return read;
    }

    private static Integer wholeIn(String text, int min, int max) {
        try {
            int n = Integer.parseInt(text);
            return n >= min && n <= max ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Double positive(String text) {
        try {
            double seconds = Double.parseDouble(text);
            return seconds > 0 && Double.isFinite(seconds) ? seconds : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static List<Engine> engines(String text) {
        if (text.equalsIgnoreCase("all")) {
            return List.of(Engine.values());
        }
        return Engine.fromSpecName(text.toLowerCase(java.util.Locale.ROOT)).map(List::of).orElse(null);
    }

    private static List<Path> paths(String text) {
        List<Path> paths = new ArrayList<>();
        Arrays.stream(text.split(",")).map(String::trim).filter(p -> !p.isEmpty()).forEach(p -> paths.add(Path.of(p)));
        return paths;
    }
}
