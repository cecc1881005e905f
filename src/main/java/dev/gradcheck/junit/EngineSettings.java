package dev.gradcheck.junit;

import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Mode;
import dev.gradcheck.run.Glob;
import dev.gradcheck.run.SpecSelection;
import dev.gradcheck.spec.CheckOptions;
import dev.gradcheck.spec.Overrides;
import dev.gradcheck.spec.Suggestions;
import dev.gradcheck.spec.TagExpression;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * What a CI run sets for the engine, from the JUnit Platform's configuration parameters
 * ({@code junit-platform.properties}, {@code -D} system properties, or a launcher's own): the same settings as
 * {@code gradcheck check}'s options of the same names. docs/library-api.md lists them.
 *
 * @param mode      {@value #MODE}: the checking mode for every spec, or null for each spec's own
 * @param threads   {@value #THREADS}: threads evaluating one check, or null for the default
 * @param jobs      {@value #JOBS}: worker JVMs checking side by side (default 1)
 * @param plugins   {@value #PLUGINS}: plugin jars or class directories, comma-separated
 * @param timeout   {@value #TIMEOUT}: one check's time limit in seconds, or null for the spec's or the built-in one
 * @param engines   {@value #BACKEND}: cpu, cuda or all for every spec, or null for each spec's own backends
 * @param selection {@value #ONLY}, {@value #SKIP} (globs, comma-separated), {@value #TAG} (a tag expression) and
 *                  {@value #KEYWORD} (a keyword expression): which specs become tests, as
 *                  {@code check --only/--skip/--tag/-k} choose
 */
record EngineSettings(Mode mode, Integer threads, int jobs, List<Path> plugins, Double timeout,
                      List<Engine> engines, SpecSelection selection) {

    static final String MODE = "gradcheck.mode";
    static final String THREADS = "gradcheck.threads";
    static final String JOBS = "gradcheck.jobs";
    /**
     * The most worker JVMs a run may start, as the CLI's {@code --jobs} (cli/options/Bounds): each is a JVM of its
     * own, and 2³¹ of them ran the machine out of memory (issue 36).
     */
    static final int MAX_JOBS = 256;
    static final String PLUGINS = "gradcheck.plugins";
    static final String TIMEOUT = "gradcheck.timeout";
    static final String BACKEND = "gradcheck.backend";
    static final String ONLY = "gradcheck.only";
    static final String SKIP = "gradcheck.skip";
    static final String TAG = "gradcheck.tag";
    static final String KEYWORD = "gradcheck.k";

    /** Every key the engine reads: any other {@code gradcheck.*} key is a typo, or a setting it does not have. */
    static final List<String> KEYS = List.of(MODE, THREADS, JOBS, PLUGINS, TIMEOUT, BACKEND, ONLY, SKIP, TAG,
            KEYWORD);
    /**
     * Not the engine's, though named like its keys (the JUnit Platform reads system properties as configuration
     * parameters): a project's own Maven property for gradcheck's version (Surefire hands
     * {@code mvn -Dgradcheck.version=...} to the test JVM as a system property), and the system properties
     * gradcheck's own JVMs read or set (the command line's, in a JVM that ran it: a test running the CLI in
     * process sets {@code gradcheck.docs}; the workers' executor), and gradcheck's own build's
     * {@code -Dgradcheck.cds.skip}, which reaches its tests' JVM the same way.
     */
    static final Set<String> NOT_OURS = Set.of("gradcheck.version", "gradcheck.cds.skip", "gradcheck.docs",
            "gradcheck.executor", "gradcheck.modes", "gradcheck.signal.grace.ms", "gradcheck.stdout.fd",
            "gradcheck.stdout.tty", "gradcheck.stdout.columns", "gradcheck.stderr.tty", "gradcheck.stderr.columns");

    /** The settings when nothing is set. */
    static final EngineSettings NONE = new EngineSettings(null, null, 1, List.of(), null, null, SpecSelection.ALL);

    /** A setting that cannot be used: its key, value and why, as the failure the engine's run shows. */
    static final class Invalid extends Exception {
        Invalid(String key, String value, String why) {
            this("configuration parameter " + key + "=" + value + ": " + why);
        }

        Invalid(String message) {
            super("gradcheck: " + message, null, false, false);
        }
    }

    static EngineSettings from(ConfigurationParameters parameters) throws Invalid {
        rejectUnknownKeys(parameters);
        Mode mode = parse(parameters, MODE, v -> Mode.fromSpecName(v).orElse(null),
                "unknown mode; one of " + String.join(", ", Mode.specNames()));
        Integer threads = parse(parameters, THREADS, v -> wholeIn(v, 1, CheckOptions.MAX_THREADS),
                "must be a whole number from 1 to " + CheckOptions.MAX_THREADS);
        Integer jobs = parse(parameters, JOBS, v -> wholeIn(v, 1, MAX_JOBS), "must be a whole number from 1 to "
                + MAX_JOBS);
        Double timeout = parse(parameters, TIMEOUT, EngineSettings::seconds, "must be a number of seconds from "
                + CheckOptions.MIN_TIMEOUT + " to " + (long) CheckOptions.MAX_TIMEOUT);
        List<Engine> engines = parse(parameters, BACKEND, EngineSettings::engines,
                "unknown backend; one of " + String.join(", ", Engine.specNames()) + ", all");
        List<Path> plugins = parameters.get(PLUGINS).map(EngineSettings::paths).orElse(List.of());
        return new EngineSettings(mode, threads, jobs == null ? 1 : jobs, plugins, timeout, engines,
                selection(parameters));
    }

    /** The settings that win over each spec's own. */
    Overrides overrides() {
        return new Overrides(mode, null, null, null, null, null, null, threads);
    }

    private static void rejectUnknownKeys(ConfigurationParameters parameters) throws Invalid {
        Set<String> keys;
        try {
            keys = new TreeSet<>(parameters.keySet());
        } catch (UnsupportedOperationException e) {
            return; // a launcher whose parameters cannot be listed: each key is still read by name
        }
        for (String key : keys) {
            if (key.startsWith("gradcheck.") && !KEYS.contains(key) && !NOT_OURS.contains(key)) {
                String hint = Suggestions.closest(key, KEYS).map(k -> "did you mean " + k + "? ").orElse("");
                throw new Invalid("configuration parameter " + key + ": unknown key; " + hint + "the engine reads "
                        + String.join(", ", KEYS) + " (docs/library-api.md)");
            }
        }
    }

    private static SpecSelection selection(ConfigurationParameters parameters) throws Invalid {
        List<Glob> only = globs(parameters, ONLY);
        List<Glob> skip = globs(parameters, SKIP);
        return new SpecSelection(only, skip, expression(parameters, TAG), expression(parameters, KEYWORD));
    }

    private static TagExpression expression(ConfigurationParameters parameters, String key) throws Invalid {
        Optional<String> text = value(parameters, key);
        if (text.isEmpty()) {
            return null;
        }
        try {
            return key.equals(KEYWORD) ? TagExpression.parseKeywords(text.get()) : TagExpression.parse(text.get());
        } catch (TagExpression.SyntaxException e) {
            throw new Invalid(key, text.get(), "column " + e.column() + ": " + e.getMessage());
        }
    }

    private static List<Glob> globs(ConfigurationParameters parameters, String key) throws Invalid {
        List<Glob> globs = new ArrayList<>();
        for (String pattern : value(parameters, key).map(EngineSettings::commaSeparated).orElse(List.of())) {
            try {
                globs.add(Glob.of(pattern));
            } catch (IllegalArgumentException e) {
                throw new Invalid(key, pattern, e.getMessage());
            }
        }
        return globs;
    }

    /** Globs separated by commas, but not those inside braces ({@code {a,b}} is one glob). */
    static List<String> commaSeparated(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            depth += c == '{' ? 1 : c == '}' && depth > 0 ? -1 : 0;
            if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts.stream().map(String::trim).filter(p -> !p.isEmpty()).toList();
    }

    private static Optional<String> value(ConfigurationParameters parameters, String key) {
        return parameters.get(key).map(String::trim).filter(v -> !v.isEmpty());
    }

    private static <T> T parse(ConfigurationParameters parameters, String key, Function<String, T> reader,
                               String why) throws Invalid {
        Optional<String> value = value(parameters, key);
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

    private static Double seconds(String text) {
        try {
            double seconds = Double.parseDouble(text);
            return CheckOptions.validTimeout(seconds) ? seconds : null;
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
