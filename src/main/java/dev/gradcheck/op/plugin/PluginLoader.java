package dev.gradcheck.op.plugin;

import dev.gradcheck.spi.Operator;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Loads plugin operators through {@link ServiceLoader} from the given jars and class directories, and from nothing
 * else: providers on gradcheck's own class path are ignored, so a run checks exactly the plugins it was given.
 * Each path is loaded on its own: a plugin jar brings its dependencies inside it (beyond gradcheck's own, ND4J
 * included, which every plugin sees).
 */
public final class PluginLoader {

    private static final String SERVICE = Operator.class.getName();

    /** How each plugin path's class loader is named: a stack frame of a plugin's class is known by it. */
    static final String LOADER_NAME = "gradcheck-plugin ";

    private PluginLoader() {}

    /**
     * @param paths jar files or directories of classes (each with {@code META-INF/services/dev.gradcheck.spi.Operator})
     * @return the operators found, by name; {@link PluginSet#EMPTY} for no paths
     * @throws PluginException for a missing path, a path with no operator provider, a provider that cannot be
     *                         loaded or instantiated, metadata (name(), inputNames(), ...) that throws or is
     *                         invalid, or two plugin ops of the same name (naming both sources)
     */
    public static PluginSet load(List<Path> paths) throws PluginException {
        return load(paths, new LoadProgress());
    }

    /** As {@link #load(List)}, saying in {@code progress} which path or plugin it is at. */
    static PluginSet load(List<Path> paths, LoadProgress progress) throws PluginException {
        if (paths.isEmpty()) {
            return PluginSet.EMPTY;
        }
        List<Path> unique = List.copyOf(new LinkedHashSet<>(paths.stream().map(p -> p.toAbsolutePath().normalize())
                .toList()));
        List<String> problems = new ArrayList<>();
        for (Path p : unique) {
            if (!Files.exists(p)) {
                problems.add("plugin path " + p + ": no such file or directory");
            } else if (!Files.isDirectory(p) && !p.getFileName().toString().endsWith(".jar")) {
                problems.add("plugin path " + p + ": not a directory or a .jar file");
            }
        }
        if (!problems.isEmpty()) {
            throw new PluginException(problems);
        }
        Map<String, PluginOperator> byName = new LinkedHashMap<>();
        for (Path p : unique) {
            progress.at("the plugins in " + p);
            loadFrom(p, byName, problems, progress);
        }
        if (!problems.isEmpty()) {
            throw new PluginException(problems);
        }
        return new PluginSet(unique, byName);
    }

    /**
     * Each path gets its own class loader, so two jars may hold classes of the same name (two versions of one
     * plugin) and a clash between them is seen, not hidden by whichever class loads first. The loaders are never
     * closed: the operators' classes stay in use for the whole run.
     */
    private static void loadFrom(Path path, Map<String, PluginOperator> byName, List<String> problems,
                                 LoadProgress progress) {
        URLClassLoader loader;
        try {
            loader = new URLClassLoader(LOADER_NAME + path, new URL[] {path.toUri().toURL()},
                    PluginLoader.class.getClassLoader());
        } catch (MalformedURLException e) {
            problems.add("plugin path " + path + ": " + e.getMessage());
            return;
        }
        int providers = 0;
        try {
            for (ServiceLoader.Provider<Operator> provider : ServiceLoader.load(Operator.class, loader).stream()
                    .toList()) {
                if (provider.type().getClassLoader() == loader) { // not one on gradcheck's own class path
                    providers++;
                    progress.at("plugin " + provider.type().getName() + " (from " + path + ")");
                    instantiate(provider, byName, problems);
                }
            }
        } catch (ServiceConfigurationError e) {
            problems.add("cannot load plugins from " + path + ": " + e.getMessage()
                    + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
            return;
        }
        if (providers == 0) {
            classesOnly(path, problems);
        }
    }

    /**
     * A path with no operator provider may hold a user's DL4J layers (found by their class name where they run):
     * it is taken when it holds classes a class loader finds. A classes folder's parent, or a jar of no class (or
     * one built without its services file, for an operator), is a problem, saying which.
     */
    private static void classesOnly(Path path, List<String> problems) {
        ClassFiles.Found found;
        try {
            found = ClassFiles.scan(path);
        } catch (java.io.IOException | RuntimeException e) {
            problems.add("plugin path " + path + ": cannot be read: " + e);
            return;
        }
        if (found.placed() == null) {
            problems.add("plugin path " + path + ": no " + SERVICE + " provider (is META-INF/services/" + SERVICE
                    + " missing?)" + (found.misplaced() == null ? " and no classes (a DL4J layer's) either"
                    : "; its classes are a folder down (" + found.misplaced() + ")"));
        }
    }

    /** Constructs the operator and reads its metadata; a throw from either is a load problem naming the class. */
    private static void instantiate(ServiceLoader.Provider<Operator> provider, Map<String, PluginOperator> byName,
                                    List<String> problems) {
        Operator op = provider.get(); // a constructor that throws: ServiceConfigurationError, naming the class
        try {
            add(PluginOperator.read(op, sourceOf(provider.type())), byName, problems);
        } catch (PluginException e) {
            problems.addAll(e.problems());
        }
    }

    private static void add(PluginOperator op, Map<String, PluginOperator> byName, List<String> problems) {
        PluginOperator before = byName.putIfAbsent(op.name(), op);
        if (before != null) {
            problems.add("op name clash: plugin op '" + op.name() + "' is defined twice: by "
                    + before.operator().getClass().getName() + " (from " + before.source() + ") and by "
                    + op.operator().getClass().getName() + " (from " + op.source() + ")");
        }
    }

    /** The jar or directory a class came from. */
    private static String sourceOf(Class<?> type) {
        CodeSource code = type.getProtectionDomain().getCodeSource();
        if (code == null || code.getLocation() == null) {
            return type.getName();
        }
        try {
            return Path.of(code.getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            return code.getLocation().toString();
        }
    }
}
