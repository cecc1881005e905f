package dev.gradcheck.cli.shell;

import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.run.RunHost;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * The commands the shell offers at its prompt, built by the entry point that registers the shell: the shell sits
 * below the command tree it is part of, so it is handed the tree's factory rather than reaching up for it.
 */
@FunctionalInterface
public interface CommandTree {

    /**
     * @param workers the worker JVMs' options, or null to check in this JVM
     * @param host where the commands' runs get their engines: the shell's warm ones
     */
    CommandLine build(PrintWriter out, PrintWriter err, WorkerOptions workers, RunHost host);
}
