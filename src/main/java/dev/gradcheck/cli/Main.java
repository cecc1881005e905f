package dev.gradcheck.cli;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.EngineOutput;
import dev.gradcheck.backend.JvmSetup;
import dev.gradcheck.backend.SharedJvm;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.backend.WorkerPool;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.ExitCodeHelp;
import dev.gradcheck.cli.options.ProjectHelp;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.cli.output.ReportChannel;
import dev.gradcheck.cli.output.EarlySignal;
import dev.gradcheck.cli.output.StaleReport;
import dev.gradcheck.cli.shell.ShellCommand;
import dev.gradcheck.cli.term.Terminal;
import dev.gradcheck.run.RunHost;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Entry point: wires the commands and keeps stdout for reports. */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        // first of all: a signal before the arguments are parsed must not leave an earlier report behind
        StaleReport.removeEarly(args);
        EarlySignal.watch(args); // and one then leaves a report marked interrupted in its place
        JvmSetup.quietLogging();
        JvmSetup.nativeAllocations();
        // ND4J's logger writes to System.out in this JVM: engine output, kept per check or shown with --verbose
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.out");
        ReportChannel stdout = reportChannel();
        PrintStream stderr = System.err;
        // Only reports may reach the real stdout. What ND4J and SameDiff print here is engine output: captured for
        // the check a thread is running, else shown only where asked (--verbose, GRADCHECK_DEBUG).
        EngineOutput.install(EngineOutput::show, stderr::println);
        if (System.getenv("GRADCHECK_DEBUG") != null) {
            EngineOutput.showTo(stderr::println);
        }
        boolean checks = startsWorker(args);
        boolean shared = checks && SharedJvm.offered();
        if (shared) {
            holdReport(stdout); // a small run may check in this JVM, which the launcher reruns if it crashes
            // ND4J starts while picocli reads the command line and the specs; first, before the worker options'
            // JMX bean (15-35 ms), as ND4J's start and SameDiff's registry after it are the first check's longest wait
            BackendFactory.prestartCpu();
        }
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(new java.io.BufferedOutputStream(stdout),
                StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(stderr, StandardCharsets.UTF_8), true);
        WorkerOptions workers = WorkerOptions.cpu(lifetime(args));
        if (checks && !shared) {
            WorkerPool.startEarly(workers); // while picocli reads the command line and the specs are parsed
        }
        int code = commandLine(out, err, BackendFactory.CPU, workers, Workspace.current(), Terminal.detect())
                .execute(args);
        WorkerPool.discardEarly();
        System.exit(exitAfterWriting(code, out, stdout, err));
    }

    /**
     * A report that did not reach stdout in full (a full device, a closed stdout) is an error: exit at least
     * {@link ExitCode#USAGE}, never 0 and never the mismatch code, with one line saying why. A pipe whose reader
     * left ({@code | head -2}) is not: the reader had what it wanted, so the run ends with its own code and says
     * nothing, as git and ripgrep do.
     */
    static int exitAfterWriting(int code, PrintWriter out, ReportChannel stdout, PrintWriter err) {
        boolean failed = out.checkError(); // flushes, then tells whether any write failed
        stdout.release(); // a report held back while this JVM checked (SharedJvm)
        String failure = stdout.failure();
        if ((failed || failure != null) && !stdout.readerLeft()) {
            err.println("gradcheck: the report could not be written to stdout (" + (failure == null ? "write error"
                    : failure) + ")");
            code = Math.max(code, ExitCode.USAGE.code());
        }
        err.flush();
        return code;
    }

    /**
     * Holds the report back until the run is over (or the run goes to workers: {@link SharedJvm#take}). A signal's
     * report is written by a shutdown hook; this hook lets out whatever is held whenever it runs (what is written
     * after it goes straight out), so that report is never lost.
     */
    private static void holdReport(ReportChannel stdout) {
        stdout.hold();
        SharedJvm.holding(stdout::release);
        Runtime.getRuntime().addShutdownHook(new Thread(stdout::release, "gradcheck-release-report"));
    }

    /**
     * Whether the command line will want a CPU worker, judged before it is parsed: {@code check} without
     * {@code --in-process}, {@code --collect-only}, help or version. A wrong guess costs only an early worker killed
     * unused (or replaced, when plugins or a memory limit make the run's workers differ). Not {@code validate}: it
     * needs ND4J only for specs that run an op (graphs, and one-op ND4J specs' shape checks), and starts its worker
     * itself once it has read the specs and seen one, so a validate of specs that run none (plugin ops, specs that
     * fail to parse) starts no ND4J at all.
     */
    static boolean startsWorker(String[] args) {
        if (args.length == 0 || !args[0].equals("check")) {
            return false;
        }
        for (String a : args) {
            if (a.equals("--") || a.equals("--in-process") || a.equals("--collect-only")
                    || a.equals("-h") || a.equals("--help") || a.equals("-V") || a.equals("--version")) {
                return false;
            }
        }
        return true;
    }

    /** The shell's worker serves a session (its JIT's C2 pays off); any other command's worker, that command. */
    static WorkerOptions.Lifetime lifetime(String[] args) {
        return args.length > 0 && args[0].equals("shell") ? WorkerOptions.Lifetime.SESSION
                : WorkerOptions.Lifetime.ONE_COMMAND;
    }

    /**
     * Where reports go: the launcher passes the real stdout as an inherited file descriptor
     * ({@code gradcheck.stdout.fd}) and points fd 1 at stderr, where native printf()s then land; {@code closed}
     * when the caller's stdout was closed. The descriptor is used as it is, not reopened by path, so it shares the
     * caller's file offset. Without it, plain stdout.
     */
    private static ReportChannel reportChannel() {
        String fd = System.getProperty("gradcheck.stdout.fd");
        if ("closed".equals(fd)) {
            return ReportChannel.closed();
        }
        if (fd != null) {
            try {
                java.io.FileDescriptor descriptor = new java.io.FileDescriptor();
                java.lang.reflect.Field field = java.io.FileDescriptor.class.getDeclaredField("fd");
                field.setAccessible(true); // needs --add-opens java.base/java.io=ALL-UNNAMED, as the launcher gives
                field.setInt(descriptor, Integer.parseInt(fd));
                return ReportChannel.of(descriptor);
            } catch (ReflectiveOperationException | RuntimeException e) {
                System.err.println("gradcheck: cannot write the report to fd " + fd + ", using stdout: " + e);
            }
        }
        return ReportChannel.of(java.io.FileDescriptor.out);
    }

    /**
     * The full command tree over the given streams, checking in this JVM with the given engine (made for the
     * run's plugins and memory budget); tests call this with captured streams and engines of their own.
     */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err, BackendFactory backends) {
        return commandLine(out, err, backends, null);
    }

    /**
     * @param workers how {@code check} starts worker JVMs; null checks in this JVM only, as {@code --in-process}
     */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err, BackendFactory backends,
                                          WorkerOptions workers) {
        return commandLine(out, err, backends, workers, Workspace.current(), Terminal.none());
    }

    /** @param workspace where the command runs: gradcheck.yaml is looked for from its directory up */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err, BackendFactory backends,
                                          WorkerOptions workers, Workspace workspace) {
        return commandLine(out, err, backends, workers, workspace, Terminal.none());
    }

    /** @param terminal whether stdout and stderr are terminals, and how wide (tests pretend) */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err, BackendFactory backends,
                                          WorkerOptions workers, Workspace workspace, Terminal terminal) {
        return tree(new Wiring(out, err, backends, workers, workspace, RunHost.process(backends, workers), terminal),
                true);
    }

    /**
     * What the commands are built over: their streams, the in-process engine and the workers' options, where they
     * run, where their runs get engines (this process, or the shell's warm worker) and the terminal.
     */
    private record Wiring(PrintWriter out, PrintWriter err, BackendFactory backends, WorkerOptions workers,
                          Workspace workspace, RunHost host, Terminal terminal) {}

    /**
     * @param withShell whether the tree has {@code shell} and {@code completion}: not the shell's own, whose
     *                  commands run checks on the engines its host gives (the shell's warm worker)
     */
    private static CommandLine tree(Wiring w, boolean withShell) {
        Docs.publish();
        CommandLine cl = new CommandLine(new GradcheckCommand());
        cl.addSubcommand(new CommandLine(new CheckCommand(w.workers(), w.workspace(), w.host(), w.terminal())));
        cl.addSubcommand(new CommandLine(new ExplainCommand(w.workers(), w.host(), w.workspace(), w.terminal())));
        cl.addSubcommand(new CommandLine(new ValidateCommand(w.backends(), w.workers(), w.workspace())));
        cl.addSubcommand(new CommandLine(new ListOpsCommand(w.workspace(), w.terminal())));
        cl.addSubcommand(new CommandLine(new NewCommand(w.backends(), w.workers(), w.workspace())));
        cl.addSubcommand(new CommandLine(new BenchCommand()));
        cl.addSubcommand(new CommandLine(new CoverageCommand(w.workspace())));
        cl.addSubcommand(new CommandLine(new MergeCommand(w.workspace(), w.terminal())));
        cl.addSubcommand(new CommandLine(new DocsCommand()));
        if (withShell) {
            cl.addSubcommand(new CommandLine(new ShellCommand(w.backends(), w.workers(), w.terminal(),
                    (out, err, workers, host) -> tree(new Wiring(out, err, w.backends(), workers, w.workspace(), host,
                            w.terminal()), false))));
            cl.addSubcommand(new CommandLine(new CompletionCommand()));
        }
        cl.setOut(w.out());
        cl.setErr(w.err());
        cl.setParameterExceptionHandler(new UsageErrors());
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("gradcheck: internal error: " + e
                    + (System.getenv("GRADCHECK_DEBUG") == null ? " (set GRADCHECK_DEBUG=1 for the stack trace)" : ""));
            if (System.getenv("GRADCHECK_DEBUG") != null) {
                e.printStackTrace(commandLine.getErr());
            }
            return ExitCode.OP_ERROR.code();
        });
        listExitCodes(cl);
        for (CommandLine sub : cl.getSubcommands().values()) {
            ProjectHelp.add(sub, w.workspace());
        }
        return cl;
    }

    /** Each command's --help lists the exit codes it can end with, as the command says them (picocli aligns them). */
    private static void listExitCodes(CommandLine command) {
        if (!(command.getCommandSpec().userObject() instanceof ExitCodeHelp codes)) {
            throw new IllegalStateException("command " + command.getCommandName() + " does not say its exit codes"
                    + " (ExitCodeHelp)");
        }
        command.getCommandSpec().usageMessage()
                .exitCodeListHeading("%nExit codes" + (codes.highestApplies() ? " (the highest that applies)" : "")
                        + ":%n")
                .exitCodeList(codes.exitCodeHelp());
        command.getSubcommands().values().forEach(Main::listExitCodes);
    }
}
