package dev.gradcheck.cli.options;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Where a command runs: the working directory (from which gradcheck.yaml is looked for, and against which relative
 * spec paths are read) and the environment. Passed in, so tests can run commands as if elsewhere.
 */
public record Workspace(Path workingDirectory, UnaryOperator<String> env) {

    public Workspace {
        workingDirectory = workingDirectory.toAbsolutePath().normalize();
    }

    public static Workspace current() {
        return new Workspace(Path.of(""), System::getenv);
    }

    /** This directory, with the process's environment but for these variables. */
    public static Workspace at(Path directory, Map<String, String> overrides) {
        return new Workspace(directory, name -> overrides.containsKey(name) ? overrides.get(name) : System.getenv(name));
    }
}
