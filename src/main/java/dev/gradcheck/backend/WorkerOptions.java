package dev.gradcheck.backend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How to start one worker JVM. Kept as data so that options other features need in the worker (plugin jars,
 * memory limits, test hooks) travel as system properties or arguments without a new code path.
 *
 * @param backend     the engine name reports show ("cpu", "cuda")
 * @param environment extra environment variables (the CUDA worker sets BACKEND_PRIORITY_GPU here)
 * @param properties  system properties for the worker ({@code -Dkey=value})
 * @param jvmArgs     further JVM options (heap size, ...)
 * @param mainClass   the worker's entry point; tests name one that adds test-only operators
 * @param classPath   the worker's class path; by default this JVM's own
 * @param args        arguments after the main class
 */
public record WorkerOptions(
        String backend,
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

    /** A worker on ND4J's CPU backend, started from this JVM's class path. */
    public static WorkerOptions cpu() {
        // A crashing JVM writes hs_err_pid*.log into its working directory, the user's project: not there.
        String errorFile = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "gradcheck-worker-hs_err_pid%p.log")
                .toString();
        // ND4J picks the backend with the highest BACKEND_PRIORITY_* (GPU defaults above CPU): with nd4j-cuda on
        // the class path (mvn -Pcuda), a CPU worker must say it wants the CPU.
        Map<String, String> cpuFirst = Map.of("BACKEND_PRIORITY_CPU", "100", "BACKEND_PRIORITY_GPU", "0");
        List<String> jvm = new ArrayList<>(List.of("-XX:ErrorFile=" + errorFile, "-XX:-CreateCoredumpOnCrash"));
        // the heap the user gave gradcheck (GRADCHECK_OPTS=-Xmx8g) is meant for the checks, which run here
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-Xmx")).reduce((first, last) -> last).ifPresent(jvm::add);
        return new WorkerOptions("cpu", cpuFirst, Map.of(), jvm, WorkerMain.class.getName(),
                System.getProperty("java.class.path"), List.of());
    }

    /**
     * The same worker on ND4J's CUDA backend: ND4J picks the backend with the highest BACKEND_PRIORITY_* (read once
     * per JVM), so the CUDA worker raises the GPU's above the CPU's.
     */
    public WorkerOptions onCuda() {
        return withBackend("cuda").withEnvironment("BACKEND_PRIORITY_GPU", "100")
                .withEnvironment("BACKEND_PRIORITY_CPU", "0");
    }

    public WorkerOptions withBackend(String name) {
        return new WorkerOptions(name, environment, properties, jvmArgs, mainClass, classPath, args);
    }

    public WorkerOptions withEnvironment(String key, String value) {
        Map<String, String> env = new LinkedHashMap<>(environment);
        env.put(key, value);
        return new WorkerOptions(backend, env, properties, jvmArgs, mainClass, classPath, args);
    }

    public WorkerOptions withProperty(String key, String value) {
        Map<String, String> props = new LinkedHashMap<>(properties);
        props.put(key, value);
        return new WorkerOptions(backend, environment, props, jvmArgs, mainClass, classPath, args);
    }

    public WorkerOptions withJvmArg(String arg) {
        List<String> all = new ArrayList<>(jvmArgs);
        all.add(arg);
        return new WorkerOptions(backend, environment, properties, all, mainClass, classPath, args);
    }

    /** Plugin jars or class directories the worker loads its operators from (as {@code --plugin}). */
    public WorkerOptions withPlugins(List<java.nio.file.Path> paths) {
        return withProperty(WorkerMain.PLUGINS_PROPERTY, String.join(java.io.File.pathSeparator,
                paths.stream().map(p -> p.toAbsolutePath().toString()).toList()));
    }

    public WorkerOptions withMainClass(String name) {
        return new WorkerOptions(backend, environment, properties, jvmArgs, name, classPath, args);
    }

    /** The command line: the same {@code java} as this JVM, so the worker runs what the front end runs. */
    List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-D" + InProcessCpuBackend.NAME_PROPERTY + "=" + backend);
        properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }
}
