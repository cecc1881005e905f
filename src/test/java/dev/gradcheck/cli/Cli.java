package dev.gradcheck.cli;

import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.cli.term.Terminal;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.function.Supplier;

/** Runs the real command tree with captured stdout and stderr. */
public record Cli(int exit, String out, String err) {

    public static Cli run(String... args) {
        return runWithPlugins(BackendFactory.CPU, args);
    }

    /** With a fixed engine, whatever plugins the command line names. */
    public static Cli run(Supplier<Backend> backends, String... args) {
        return runWithPlugins((plugins, budget) -> backends.get(), args);
    }

    static Cli runWithPlugins(BackendFactory backends, String... args) {
        return run(backends, null, args);
    }

    /** As the real front end runs: checks in worker JVMs started with {@code workers}, unless --in-process. */
    static Cli runWithWorkers(WorkerOptions workers, String... args) {
        return run(BackendFactory.CPU, workers, args);
    }

    private static Cli run(BackendFactory backends, WorkerOptions workers, String... args) {
        return run(backends, workers, Workspace.current(), args);
    }

    /** As if run from {@code workspace}'s directory (where gradcheck.yaml is looked for from). */
    static Cli runIn(Workspace workspace, String... args) {
        return run(BackendFactory.CPU, null, workspace, args);
    }

    private static Cli run(BackendFactory backends, WorkerOptions workers, Workspace workspace, String... args) {
        return run(backends, workers, workspace, Terminal.none(), args);
    }

    /** As if stdout and stderr were what {@code terminal} says (a terminal of some width, an environment). */
    static Cli onTerminal(Terminal terminal, String... args) {
        return run(BackendFactory.CPU, null, Workspace.current(), terminal, args);
    }

    private static Cli run(BackendFactory backends, WorkerOptions workers, Workspace workspace, Terminal terminal,
                           String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true), backends, workers,
                workspace, terminal).execute(args);
        return new Cli(exit, out.toString(), err.toString());
    }
}
