package dev.gradcheck.op.plugin;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Loads a run's plugins in gradcheck's own JVM under the discipline its checks have in worker JVMs: a time limit,
 * and no way for a plugin to end the run with an exit code of its choosing. The front end must construct each
 * plugin and read its metadata (names, inputs) before anything is checked, so a constructor that blocks hung the
 * run, and one that called {@code System.exit(0)} ended it with 0 and nothing said: a green run that checked
 * nothing. Both are now usage errors (exit 2) naming the plugin.
 *
 * <p>The exit cannot be refused: Java 17 has no hook for that short of a SecurityManager, which is deprecated for
 * removal and refused by default from Java 18. A child JVM that loads the plugins first would cost every run with
 * plugins a JVM start. Instead a shutdown hook is registered for the time of the load: it runs when a plugin's exit
 * has begun the JVM's shutdown, sees the exit in a thread's stack below a plugin's frame, says so, and halts with
 * 2 ({@link Runtime#halt} is allowed in a hook, and wins over the status the plugin asked for). A shutdown for any
 * other reason (a signal) passes it by. {@link Runtime#halt} called by a plugin runs no hook and cannot be seen.
 */
public final class GuardedLoad {

    /** A usage error's exit code (the front end's ExitCode.USAGE: op.plugin does not see the cli layer). */
    static final int USAGE = 2;

    private GuardedLoad() {}

    /**
     * {@link PluginLoader#load(List)} within {@code limit}.
     *
     * @param err where an exit during the load is said, from the shutdown hook, before the JVM halts with 2
     * @throws PluginException as {@link PluginLoader#load(List)}, and for a load that did not end within the
     *                         limit, naming the plugin it was constructing or reading
     */
    public static PluginSet load(List<Path> paths, Duration limit, PrintWriter err) throws PluginException {
        if (paths.isEmpty()) {
            return PluginSet.EMPTY;
        }
        LoadProgress progress = new LoadProgress();
        FutureTask<PluginSet> task = new FutureTask<>(() -> PluginLoader.load(paths, progress));
        Thread loading = new Thread(task, "gradcheck-plugin-loading");
        loading.setDaemon(true); // a constructor that never returns must not keep the JVM from exiting after
        Thread guard = new Thread(() -> haltIfAPluginExits(progress, err), "gradcheck-plugin-exit-guard");
        Runtime.getRuntime().addShutdownHook(guard);
        try {
            loading.start();
            return task.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            loading.interrupt(); // a plugin that honours it stops; one that does not stays blocked on a daemon
            throw new PluginException(List.of(progress.now() + " did not finish loading within "
                    + seconds(limit) + " s: its constructor or its metadata (name(), inputNames(), ...) blocks"));
        } catch (ExecutionException e) {
            throw rethrown(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PluginException(List.of("interrupted while loading " + progress.now()));
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(guard);
            } catch (IllegalStateException e) {
                // the JVM is shutting down already: the hook is running, or has passed
            }
        }
    }

    /** The shutdown hook: only an exit called from a plugin's code is the plugin's doing. */
    private static void haltIfAPluginExits(LoadProgress progress, PrintWriter err) {
        for (StackTraceElement[] stack : Thread.getAllStackTraces().values()) {
            StackTraceElement caller = pluginCallerOfExit(stack);
            if (caller != null) {
                err.println("gradcheck: " + progress.now() + " called System.exit while loading (in "
                        + caller.getClassName() + "." + caller.getMethodName() + "): a plugin must not end the run");
                err.flush();
                Runtime.getRuntime().halt(USAGE);
            }
        }
    }

    /**
     * The frame of a plugin's class below {@code Runtime.exit} in this stack (innermost first), or null: a
     * signal's exit (the JVM's handler, or gradcheck's own) has no plugin frame below it.
     */
    static StackTraceElement pluginCallerOfExit(StackTraceElement[] stack) {
        boolean exiting = false;
        for (StackTraceElement frame : stack) {
            if (frame.getClassName().equals("java.lang.Runtime") && frame.getMethodName().equals("exit")) {
                exiting = true;
            } else if (exiting && frame.getClassLoaderName() != null
                    && frame.getClassLoaderName().startsWith(PluginLoader.LOADER_NAME)) {
                return frame;
            }
        }
        return null;
    }

    private static PluginException rethrown(Throwable cause) {
        if (cause instanceof PluginException p) {
            return p;
        }
        if (cause instanceof RuntimeException r) {
            throw r;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(cause);
    }

    private static String seconds(Duration limit) {
        double s = limit.toNanos() / 1e9;
        return s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s);
    }
}
