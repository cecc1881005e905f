package dev.gradcheck.cli;

import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.ExitCodeHelp;
import dev.gradcheck.cli.options.PluginOptions;
import dev.gradcheck.cli.options.Project;
import dev.gradcheck.cli.options.ProjectOptions;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.run.RunHost;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The lifecycle of a command that works on specs, reports or ops, after PMD's {@code AbstractPmdSubcommand}:
 * <ol>
 *   <li>start: the command's console, and its project, whose file fills the options the command line left out (a
 *       command without {@code --config} reads no file);</li>
 *   <li>{@link #validate()} the options, complete only now: a bad value is a usage error before anything is read;
 *   </li>
 *   <li>{@link #configure} what the command works on: its paths, specs, plugins, report writer;</li>
 *   <li>{@link #execute} it, for the exit code.</li>
 * </ol>
 * check, validate, explain, coverage, merge and list-ops share it, so the start each of them wrote out (console,
 * project file, paths, spec batch, plugins) is written here once. The options stay declared in each command, in
 * the order its --help shows them. A usage error found on the way is a {@link ParameterException} (picocli prints
 * it with where the help is) or, where the problems were said already, a null configuration; either ends the
 * command with {@link ExitCode#USAGE}.
 *
 * @param <C> what {@link #configure} makes and {@link #execute} works on
 */
@Command // no attributes (each command's own apply); picocli's annotation processor accepts @Spec only in a @Command
abstract class AbstractCommand<C> implements Callable<Integer>, ExitCodeHelp {

    @Spec
    CommandSpec command;

    /** Where the command runs: gradcheck.yaml is looked for from its directory up, relative paths read from it. */
    final Workspace workspace;

    AbstractCommand(Workspace workspace) {
        this.workspace = workspace;
    }

    /**
     * What every command starts from.
     *
     * @param console   the command's two streams
     * @param project   the project it runs in (without a project file: the working directory, no paths, no plugins)
     * @param nanos     {@link System#nanoTime()} when the command started: a report's seconds count from here
     * @param startedAt when the command started, for a report's date
     */
    record Start(Console console, Project project, long nanos, OffsetDateTime startedAt) {

        /** Every spec under the paths; a path that does not exist is said on stderr and does not stop the others. */
        SpecBatch specs(List<Path> paths) {
            SpecBatch batch = SpecBatch.load(paths);
            batch.pathProblems().forEach(p -> console.err().println("gradcheck: " + p));
            return batch;
        }

        /**
         * The command's plugins: the project file's {@code plugins:}, then GRADCHECK_PLUGIN_PATH's and
         * {@code --plugin}'s; null after saying on stderr why they cannot load (a usage error).
         */
        PluginSet plugins(PluginOptions options) {
            return plugins(options, null);
        }

        /** @param timeoutSeconds the command's --timeout, which limits loading too; null: the default limit */
        PluginSet plugins(PluginOptions options, Double timeoutSeconds) {
            return options.loadOrReport(console.err(), project.plugins(), timeoutSeconds);
        }
    }

    @Override
    public final Integer call() throws Exception {
        long nanos = System.nanoTime();
        OffsetDateTime startedAt = OffsetDateTime.now();
        Console console = console();
        try (RunHost.Watch signals = watchSignals()) {
            ProjectOptions projectOptions = projectOptions();
            Project project = projectOptions == null ? new Project(workspace, null)
                    : projectOptions.load(command, workspace, console.err());
            if (project == null) {
                return ExitCode.USAGE.code(); // the project file's problems are said
            }
            validate();
            Start start = new Start(console, project, nanos, startedAt);
            C configuration = configure(start);
            return configuration == null ? ExitCode.USAGE.code() : execute(configuration, start);
        }
    }

    /**
     * Starts hearing signals for the whole command, its arguments parsed: a command whose report a signal must
     * not lose (check) hears them from here, not only once its run starts. None by default.
     */
    RunHost.Watch watchSignals() {
        return () -> { };
    }

    /** The command's two streams: picocli's (check's draw around its status line). */
    Console console() {
        return Console.of(command);
    }

    /** The command's {@code --config}, for a command that reads the project file; null for one that does not. */
    ProjectOptions projectOptions() {
        return null;
    }

    /** Checks the options' values together; a bad one throws a {@link ParameterException}. None by default. */
    void validate() {
    }

    /**
     * What the command works on, made from its options: paths, specs, plugins, where the report goes.
     *
     * @return null after saying on stderr why there is nothing to execute (a usage error)
     */
    abstract C configure(Start start) throws Exception;

    /** Does the command's work; returns its exit code. */
    abstract int execute(C configuration, Start start) throws Exception;

    /**
     * The paths the command line gives, else the project file's {@code paths:}.
     *
     * @throws ParameterException when there are neither, saying where the project file was looked for
     */
    final List<Path> pathsOrProject(List<Path> given, Project project) {
        List<Path> paths = given == null || given.isEmpty() ? project.paths() : given;
        if (paths.isEmpty()) {
            ProjectOptions options = projectOptions();
            throw new ParameterException(command.commandLine(), "no PATH given, and no paths: in a project file ("
                    + ProjectOptions.describe(options == null ? null : options.config, workspace) + ")");
        }
        return paths;
    }
}
