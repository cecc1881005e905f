package dev.gradcheck.cli.options;

import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.plugin.GuardedLoad;
import dev.gradcheck.op.plugin.PluginException;
import dev.gradcheck.op.plugin.PluginSet;
import java.io.File;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --plugin PATH} (repeatable) and GRADCHECK_PLUGIN_PATH: where plugin operators, and a user's own DL4J layers,
 * are loaded from.
 */
public final class PluginOptions {

    static final String ENV = "GRADCHECK_PLUGIN_PATH";

    /**
     * How long loading the plugins may take where no --timeout is given: loading is a constructor and a few getters
     * per op, seconds at most even for a plugin that starts ND4J; check's own default (300 s) is for a check.
     */
    public static final Duration DEFAULT_LOAD_LIMIT = Duration.ofSeconds(60);

    @Option(names = "--plugin", paramLabel = "PATH",
            description = "Load plugin operators (dev.gradcheck.spi.Operator, via ServiceLoader) and your own"
                + " DL4J layers (a layer spec's type, by its full class name) from a jar or a directory of classes;"
                + " repeatable. Paths in $" + ENV + " (separated by ':') are loaded too."
                + " Nothing else is loaded. See ${sys:gradcheck.docs:-docs}/plugins.md (`gradcheck docs plugins`).")
    List<Path> plugins = new ArrayList<>();

    /** GRADCHECK_PLUGIN_PATH's paths, then --plugin's. */
    public static List<Path> paths(String env, List<Path> flags) {
        List<Path> paths = new ArrayList<>();
        if (env != null) {
            for (String p : env.split(File.pathSeparator)) {
                if (!p.isBlank()) {
                    paths.add(Path.of(p.strip()));
                }
            }
        }
        paths.addAll(flags);
        return paths;
    }

    /**
     * The plugins of this run, checked for clashes with ND4J's op names; ND4J is not started when there are none.
     * Problems go to {@code err}, one line each, and leave null: a usage error.
     */
    public PluginSet loadOrReport(PrintWriter err) {
        return loadOrReport(err, List.of(), null);
    }

    /**
     * A plugin that does not finish loading within the limit, or that calls System.exit while loading, is a usage
     * error naming it (the second ends the JVM with 2 at once).
     *
     * @param project        the project file's {@code plugins:}, loaded first
     * @param timeoutSeconds the command's --timeout, the limit on loading as on one check; null:
     *                       {@link #DEFAULT_LOAD_LIMIT}
     */
    public PluginSet loadOrReport(PrintWriter err, List<Path> project, Double timeoutSeconds) {
        try {
            List<Path> all = new ArrayList<>(project);
            all.addAll(paths(System.getenv(ENV), plugins));
            Duration limit = timeoutSeconds == null ? DEFAULT_LOAD_LIMIT
                    : Duration.ofNanos((long) Math.ceil(timeoutSeconds * 1e9));
            PluginSet set = GuardedLoad.load(all, limit, err);
            if (!set.isEmpty()) {
                set.rejectClashes(OpCatalog.nd4j());
            }
            return set;
        } catch (PluginException e) {
            e.problems().forEach(p -> err.println("gradcheck: " + p));
            err.flush();
            return null;
        }
    }
}
