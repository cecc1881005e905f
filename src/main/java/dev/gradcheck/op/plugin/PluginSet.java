package dev.gradcheck.op.plugin;

import dev.gradcheck.op.catalog.ArgInfo;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.catalog.OpInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The plugin operators loaded for one run, by name, with the paths they came from: a worker process can load the
 * same set again from {@link #paths()}. The paths may hold a user's DL4J layers too ({@link #classLoader()}).
 */
public final class PluginSet {

    public static final PluginSet EMPTY = new PluginSet(List.of(), Map.of());

    private final List<Path> paths;
    private final Map<String, PluginOperator> byName;
    private ClassLoader classLoader;

    PluginSet(List<Path> paths, Map<String, PluginOperator> byName) {
        this.paths = List.copyOf(paths);
        this.byName = new TreeMap<>(byName);
    }

    /** The jar and directory paths, in the order given. */
    public List<Path> paths() {
        return paths;
    }

    /** Whether no plugin path was given (a path may hold DL4J layers and no operator). */
    public boolean isEmpty() {
        return paths.isEmpty();
    }

    /**
     * The class loader a spec's layer type is looked up in: one over every plugin path, its parent gradcheck's
     * (so a user's DL4J layer shares DL4J's classes); gradcheck's own without plugin paths. Made on first use and
     * never closed: the classes stay in use for the run.
     */
    public synchronized ClassLoader classLoader() {
        if (classLoader == null) {
            classLoader = paths.isEmpty() ? PluginSet.class.getClassLoader() : new java.net.URLClassLoader(
                    PluginLoader.LOADER_NAME + "classes", paths.stream().map(PluginSet::url)
                    .toArray(java.net.URL[]::new), PluginSet.class.getClassLoader());
        }
        return classLoader;
    }

    private static java.net.URL url(Path path) {
        try {
            return path.toUri().toURL();
        } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException("plugin path " + path + " was loaded, so it is a URL", e);
        }
    }

    public Optional<PluginOperator> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Every plugin operator, sorted by name. */
    public List<PluginOperator> all() {
        List<PluginOperator> list = new ArrayList<>(byName.values());
        list.sort(Comparator.comparing(PluginOperator::name));
        return list;
    }

    /** A plugin op may not take an ND4J op's name: a spec naming it would be ambiguous. */
    public void rejectClashes(OpCatalog nd4j) throws PluginException {
        List<String> clashes = new ArrayList<>();
        for (PluginOperator p : all()) {
            if (nd4j.find(p.name()).isPresent()) {
                clashes.add("op name clash: '" + p.name() + "' is both an ND4J op and a plugin op (from "
                        + p.source() + ")");
            }
        }
        if (!clashes.isEmpty()) {
            throw new PluginException(clashes);
        }
    }

    /** list-ops' view of the plugins. */
    public List<OpInfo> describe() {
        return all().stream().map(p -> new OpInfo(p.name(), "plugin " + p.source(),
                p.operator().getClass().getName(), false, arguments(p))).toList();
    }

    private static List<ArgInfo> arguments(PluginOperator p) {
        List<ArgInfo> args = new ArrayList<>();
        List<String> inputs = p.inputNames();
        for (int i = 0; i < inputs.size(); i++) {
            args.add(new ArgInfo(inputs.get(i), ArgInfo.Kind.INPUT, i));
        }
        List<String> attributes = p.attributeNames();
        for (int i = 0; i < attributes.size(); i++) {
            args.add(new ArgInfo(attributes.get(i), ArgInfo.Kind.ANY, i));
        }
        return args;
    }
}
