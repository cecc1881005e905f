package dev.gradcheck.backend;

import dev.gradcheck.result.Engine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How to start one worker JVM. Kept as data so that options other features need in the worker (plugin jars,
 * memory limits, test hooks) travel as system properties or arguments without a new code path.
 *
 * @param engine      the engine the worker runs (its checks' results name it)
 * @param environment extra environment variables (each engine sets ND4J's BACKEND_PRIORITY_* here)
 * @param properties  system properties for the worker ({@code -Dkey=value})
 * @param jvmArgs     further JVM options (heap size, ...)
 * @param mainClass   the worker's entry point; tests name one that adds test-only operators
 * @param classPath   the worker's class path; by default this JVM's own
 * @param args        arguments after the main class
 */
public record WorkerOptions(
        Engine engine,
        Map<String, String> environment,
        Map<String, String> properties,
        List<String> jvmArgs,
        String mainClass,
        String classPath,
        List<String> args) {

    public WorkerOptions {
        environment = Map.copyOf(environment);
        properties = Map.copyOf(properties);
        jvmArgs = List.copyOf(jvmArgs);
        args = List.copyOf(args);
    }

    /** The environment variable whose JVM options every worker gets last (so they win), e.g. the JIT back. */
    public static final String USER_OPTIONS_ENV = "GRADCHECK_WORKER_OPTS";

    // What the front end and a worker agree on, named here on the front end's side: the worker's classes load ND4J,
    // and the front end starts that JVM without loading one of them (ArchitectureTest follows every link from here).

    /** The worker's entry point, backend/nd4j's WorkerMain (NamedByTheFrontEndTest holds the name to the class). */
    public static final String WORKER_MAIN = "dev.gradcheck.backend.nd4j.WorkerMain";
    /** The engine the worker was started for ({@link Engine#specName()}). */
    public static final String ENGINE_PROPERTY = "gradcheck.backend";
    /** The plugin paths the front end was given, joined with the platform's path separator. */
    public static final String PLUGINS_PROPERTY = "gradcheck.plugins";
    /** {@code --max-memory} in bytes, when given; otherwise the worker's default budget (half its heap). */
    public static final String MAX_MEMORY_PROPERTY = "gradcheck.max-memory";
    /**
     * The executor of ND4J graphs ({@code Nd4jOpBuilder.Executor.PROPERTY}), which the front end only passes on
     * (EngineSupportTest holds the two names together).
     */
    static final String EXECUTOR_PROPERTY = "gradcheck.executor";

    /** A worker on ND4J's CPU backend for one command, started from this JVM's class path. */
    public static WorkerOptions cpu() {
        return cpu(Lifetime.ONE_COMMAND);
    }

    /**
     * How long a worker will serve, which decides how its JIT compiles. A worker for one command (check, validate,
     * explain) compiles with C1 only: its checks are over before C2's optimised code repays the CPU C2 spends on
     * ND4J's and gradcheck's hot paths, and on two cores that compiler competes with the check itself (the spec
     * suite: 8.9 s wall and 15 s CPU with C2, 6.9-7.3 s and 8 s with C1; a cold tanh 4000 full check 0.83 s -> 0.54
     * s). A session's worker (the shell) keeps C2, which a long run of checks repays. A dense check running for
     * seconds is faster with C2 (a 64x64 matmul with compress: false, 6.7 s -> 9.2 s with C1):
     * {@code GRADCHECK_WORKER_OPTS=-XX:TieredStopAtLevel=4} gives it back.
     */
    public enum Lifetime { ONE_COMMAND, SESSION }

    /** A worker on ND4J's CPU backend, started from this JVM's class path, compiled for its lifetime. */
    public static WorkerOptions cpu(Lifetime lifetime) {
        return cpu(lifetime, System.getenv(USER_OPTIONS_ENV));
    }

    /** @param userOptions the value of {@value #USER_OPTIONS_ENV}, or null */
    static WorkerOptions cpu(Lifetime lifetime, String userOptions) {
        // A crashing JVM writes hs_err_pid*.log into its working directory, the user's project: not there.
        String errorFile = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "gradcheck-worker-hs_err_pid%p.log")
                .toString();
        List<String> jvm = new ArrayList<>(List.of("-XX:ErrorFile=" + errorFile, "-XX:-CreateCoredumpOnCrash"));
        List<String> given = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments();
        // the heap the user gave gradcheck (GRADCHECK_OPTS=-Xmx8g) is meant for the checks, which run here
        given.stream().filter(a -> a.startsWith("-Xmx")).reduce((first, last) -> last).ifPresent(jvm::add);
        // the class-data-sharing archive bin/gradcheck gives the front end holds the worker's classes too
        given.stream().filter(WorkerOptions::sharesClassData).forEach(jvm::add);
        // what bin/gradcheck allows ND4J's libraries on Java 24 and later (native loads, sun.misc.Unsafe): the same
        // java runs the worker, so it accepts them, and without them its start-up warnings fill the check's log
        given.stream().filter(WorkerOptions::allowsNativeAccess).forEach(jvm::add);
        // as does the executor chosen for ND4J graphs (GRADCHECK_OPTS=-Dgradcheck.executor=samediff, docs/executor.md)
        String executor = System.getProperty(EXECUTOR_PROPERTY);
        if (executor != null) {
            jvm.add("-D" + EXECUTOR_PROPERTY + "=" + executor);
        }
        if (lifetime == Lifetime.ONE_COMMAND) {
            jvm.add("-XX:TieredStopAtLevel=1");
        }
        // the collector bin/gradcheck (or the user) chose for the front end, unless the worker's own options choose
        // one: the JVM refuses to start with two
        if (userOptions(userOptions).stream().noneMatch(WorkerOptions::choosesCollector)) {
            given.stream().filter(WorkerOptions::choosesCollector).reduce((first, last) -> last).ifPresent(jvm::add);
        }
        jvm.addAll(userOptions(userOptions));
        WorkerOptions any = new WorkerOptions(Engine.CPU, Map.of(), Map.of(), jvm, WORKER_MAIN,
                System.getProperty("java.class.path"), List.of());
        return EngineSupport.of(Engine.CPU).worker(any, Availability.ALWAYS);
    }

    /** Whether a JVM option selects the garbage collector ({@code -XX:+UseSerialGC}, {@code -XX:+UseG1GC}, ...). */
    static boolean choosesCollector(String jvmOption) {
        return jvmOption.startsWith("-XX:+Use") && jvmOption.endsWith("GC");
    }

    /** The options of {@value #USER_OPTIONS_ENV}, split at whitespace (none when it is unset or blank). */
    static List<String> userOptions(String value) {
        return value == null || value.isBlank() ? List.of() : List.of(value.trim().split("\\s+"));
    }

    /**
     * A front end's option that the worker takes as it is: the archive ({@code -XX:SharedArchiveFile}, made by
     * the build from a run that loads both JVMs' classes) and how the JVM uses, verifies and logs it.
     */
    static boolean sharesClassData(String jvmOption) {
        return jvmOption.startsWith("-XX:SharedArchiveFile=") || jvmOption.startsWith("-Xshare:")
                || jvmOption.startsWith("-Xlog:cds") || jvmOption.endsWith("VerifySharedSpaces");
    }

    /** The same worker on another engine: the engine's own settings (see {@link EngineSupport#worker}). */
    public WorkerOptions on(Engine other, Availability availability) {
        return EngineSupport.of(other).worker(this, availability);
    }

    /** Only the engine name; {@link #on} also sets what the engine needs. */
    public WorkerOptions withEngine(Engine other) {
        return new WorkerOptions(other, environment, properties, jvmArgs, mainClass, classPath, args);
    }

    public WorkerOptions withEnvironment(String key, String value) {
        Map<String, String> env = new LinkedHashMap<>(environment);
        env.put(key, value);
        return new WorkerOptions(engine, env, properties, jvmArgs, mainClass, classPath, args);
    }

    public WorkerOptions withProperty(String key, String value) {
        Map<String, String> props = new LinkedHashMap<>(properties);
        props.put(key, value);
        return new WorkerOptions(engine, environment, props, jvmArgs, mainClass, classPath, args);
    }

    /** Plugin jars or class directories the worker loads its operators from (as {@code --plugin}). */
    public WorkerOptions withPlugins(List<java.nio.file.Path> paths) {
        return withProperty(PLUGINS_PROPERTY, String.join(java.io.File.pathSeparator,
                paths.stream().map(p -> p.toAbsolutePath().toString()).toList()));
    }

    /** The most memory one check may plan to use ({@code --max-memory}), for the worker's checker. */
    public WorkerOptions withMaxMemory(long bytes) {
        return withProperty(MAX_MEMORY_PROPERTY, Long.toString(bytes));
    }

    public WorkerOptions withMainClass(String name) {
        return new WorkerOptions(engine, environment, properties, jvmArgs, name, classPath, args);
    }

    /**
     * A front end's option that lets class-path code load native libraries or use {@code sun.misc.Unsafe}'s memory
     * access without a warning ({@code --enable-native-access}, {@code --illegal-native-access}, {@code
     * --sun-misc-unsafe-memory-access}), which the worker takes as it is.
     */
    static boolean allowsNativeAccess(String jvmOption) {
        return jvmOption.startsWith("--enable-native-access=") || jvmOption.startsWith("--illegal-native-access=")
                || jvmOption.startsWith("--sun-misc-unsafe-memory-access=");
    }

    /** The command line: the same {@code java} as this JVM, so the worker runs what the front end runs. */
    List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-D" + ENGINE_PROPERTY + "=" + engine.specName());
        properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }
}
