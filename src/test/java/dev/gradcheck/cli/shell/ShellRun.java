package dev.gradcheck.cli.shell;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.cli.Main;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.cli.term.Terminal;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** {@code gradcheck shell} fed a script on its input, as {@code printf '...' | gradcheck shell} does. */
public record ShellRun(int exit, String out, String err) {

    /** Checks in this JVM (the test's ND4J), as {@code --in-process}. */
    static ShellRun inProcess(String script, String... args) {
        return run(null, script, args);
    }

    /** Checks in worker JVMs started from {@code workers}: the shell's one warm worker. */
    static ShellRun withWorkers(WorkerOptions workers, String script, String... args) {
        return run(workers, script, args);
    }

    private static ShellRun run(WorkerOptions workers, String script, String... args) {
        return run(workers, Terminal.none(), script, args);
    }

    /** In this JVM, as if stdout were what {@code terminal} says (a terminal of some width, an environment). */
    public static ShellRun onTerminal(Terminal terminal, String script, String... args) {
        return run(null, terminal, script, args);
    }

    private static ShellRun run(WorkerOptions workers, Terminal terminal, String script, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true), BackendFactory.CPU,
                workers, Workspace.current(), terminal);
        ShellCommand shell = cl.getSubcommands().get("shell").getCommand();
        shell.input = new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8));
        shell.interactive = false;
        String[] all = new String[args.length + 1];
        all[0] = "shell";
        System.arraycopy(args, 0, all, 1, args.length);
        int exit = cl.execute(all);
        return new ShellRun(exit, out.toString(), err.toString());
    }

    /** No Java stack trace anywhere: the shell says what is wrong in one line. */
    boolean hasStackTrace() {
        return (out + err).contains("\tat ") || (out + err).contains("Exception in thread");
    }
}
