package dev.gradcheck.cli;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.EngineOutput;
import dev.gradcheck.backend.EnginePool;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.cli.options.CheckingOptions;
import dev.gradcheck.cli.options.ColorMode;
import dev.gradcheck.cli.options.ColorOption;
import dev.gradcheck.cli.options.DumpOptions;
import dev.gradcheck.cli.options.EngineChoice;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.FormatConverter;
import dev.gradcheck.cli.options.InProcessOption;
import dev.gradcheck.cli.options.MaxMemoryOption;
import dev.gradcheck.cli.options.PluginOptions;
import dev.gradcheck.cli.options.Project;
import dev.gradcheck.cli.options.ProjectOptions;
import dev.gradcheck.cli.options.SelectionOptions;
import dev.gradcheck.cli.options.TimeoutOption;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.cli.output.ExitPolicy;
import dev.gradcheck.cli.output.ReportListener;
import dev.gradcheck.cli.output.ReportWriter;
import dev.gradcheck.cli.output.SlowestChecks;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.cli.term.ProgressLine;
import dev.gradcheck.cli.term.Screen;
import dev.gradcheck.cli.term.Terminal;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.report.ReportFormat;
import dev.gradcheck.report.RunDetails;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.run.RunCache;
import dev.gradcheck.run.RunConfiguration;
import dev.gradcheck.run.RunHost;
import dev.gradcheck.run.RunListener;
import dev.gradcheck.run.RunSession;
import dev.gradcheck.spec.CheckOptions;
import dev.gradcheck.spec.Overrides;
import dev.gradcheck.spec.SpecIds;
import java.io.IOException;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code gradcheck check PATH...}: the main job. */
@Command(name = "check", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, sortOptions = false,
        description = {
            "Checks the gradients of every spec under the given files and directories (recursively, *.yaml and"
                + " *.yml): the numerical Jacobian (central differences, float64) against the operator's"
                + " analytic backward, per output and input.",
            "The report goes to stdout (or --output); logs go to stderr."},
        footer = {"%nExamples:",
            "  gradcheck check specs/",
            "  gradcheck check specs/ --format json --output report.json",
            "  gradcheck check specs/ --only 'softmax*' --fail-fast",
            "  gradcheck check specs/ --skip 'specs/recurrent/**' --quiet",
            "  gradcheck check specs/ --tag 'slow and not cuda' --collect-only",
            "  gradcheck check specs/ --shard 2/3 --format json --output shard-2.json",
            "  gradcheck check specs/ --last-failed",
            "  gradcheck check specs/ --mode fast --max-elements 64",
            "  gradcheck check --plugin my-ops.jar my-specs/"})
public final class CheckCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "PATH",
            description = "Spec files or directories (default: the project file's paths:).")
    List<Path> paths;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            converter = FormatConverter.class,
            completionCandidates = FormatConverter.Names.class,
            description = "Report format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); json is versioned"
                    + " (${sys:gradcheck.docs:-docs}/report-schema.md), junit is JUnit XML for CI servers, html one"
                    + " self-contained page with a heat map of each failing Jacobian block.")
    ReportFormat format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the report to FILE instead of stdout; the summary line still goes to stderr. Missing"
                    + " directories are made; a FILE that cannot be written is refused before any check runs.")
    Path output;

    @Mixin
    SelectionOptions selection = new SelectionOptions();

    @Option(names = "--collect-only",
            description = "List the specs the selection picks (as a table, or JSON with --format json) and check"
                    + " nothing; ND4J is not started.")
    boolean collectOnly;

    @Option(names = "--fail-fast",
            description = "Stop at the first spec that did not end as expected; the report holds what ran and says"
                    + " how many checks did not run.")
    boolean failFast;

    @Option(names = "--durations", paramLabel = "N",
            description = "After the report, list the N slowest checks on stderr (0: every check).")
    Integer durations;

    @Option(names = {"-q", "--quiet"},
            description = "The table lists only checks that did not end as expected (those that set the exit"
                    + " code), then the summary. JSON and JUnit still list every check.")
    boolean quiet;

    @Mixin
    public ColorOption color = new ColorOption();

    @Option(names = {"-v", "--verbose"},
            description = "Show what ND4J and libnd4j print (their logs and native diagnostics) on stderr as it comes;"
                    + " by default it is kept with each check (the JSON report's log, and under an ERROR row).")
    boolean verbose;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", defaultValue = "1",
            description = "CPU worker JVMs checking specs side by side (default: ${DEFAULT-VALUE}). Each costs about"
                    + " 2 s to start and its own ND4J threads: more than the number of cores rarely helps.")
    int jobs;

    @Mixin
    TimeoutOption timeoutOption = new TimeoutOption();

    @Option(names = "--backend", paramLabel = "BACKEND", converter = EngineChoice.Converter.class,
            completionCandidates = EngineChoice.Names.class,
            description = "${COMPLETION-CANDIDATES}: run every spec on this backend instead of its backends: list;"
                    + " all runs each on every backend and reports how far the others' outputs and gradients are"
                    + " from the first's (CPU-vs-CUDA).")
    EngineChoice engineChoice;

    @Option(names = "--require-backend",
            description = "Exit 2 when a check is skipped because its backend is not usable here (no CUDA device,"
                    + " or one nd4j-cuda M2.1 cannot run); without it, skipped checks leave the exit code alone.")
    boolean requireBackend;

    @Mixin
    MaxMemoryOption maxMemory = new MaxMemoryOption();

    @Mixin
    InProcessOption inProcess = new InProcessOption();

    @Mixin
    CheckingOptions checking = new CheckingOptions();

    @Mixin
    DumpOptions dump = new DumpOptions();

    @Mixin
    PluginOptions pluginOptions;

    @Mixin
    ProjectOptions projectOptions;

    @Spec
    CommandSpec command;

    private final WorkerOptions workerOptions;
    private final Workspace workspace;
    private final RunHost host;
    private final Terminal terminal;

    /**
     * @param inProcessBackends the engine for {@code --in-process}, made for the run's plugins and memory budget
     * @param workerOptions     how to start worker JVMs; null runs everything in process (test wiring that injects
     *                          an engine of its own)
     * @param workspace         where the command runs: gradcheck.yaml is looked for from its directory up
     * @param terminal          whether stdout and stderr are terminals, and how wide
     */
    public CheckCommand(BackendFactory inProcessBackends, WorkerOptions workerOptions, Workspace workspace,
                        Terminal terminal) {
        this(workerOptions, workspace, RunHost.process(inProcessBackends, workerOptions), terminal);
    }

    /** @param host where the run gets its engines and hears of Ctrl-C: this process, or the shell */
    public CheckCommand(WorkerOptions workerOptions, Workspace workspace, RunHost host, Terminal terminal) {
        this.workerOptions = workerOptions;
        this.workspace = workspace;
        this.host = host;
        this.terminal = terminal;
    }

    @Override
    public Integer call() {
        long start = System.nanoTime();
        OffsetDateTime startedAt = OffsetDateTime.now();
        Screen screen = new Screen(command.commandLine().getOut(), command.commandLine().getErr(),
                terminal.errTerminal() && terminal.smartTerm(), terminal.errColumns(), terminal.reportTerminal());
        Console console = Console.of(screen);
        Project project = projectOptions.load(command, workspace, console.err());
        if (project == null) {
            return ExitCode.USAGE.code();
        }
        Overrides overrides = checking.overrides(command);
        if (jobs < 1) {
            throw new ParameterException(command.commandLine(), "--jobs must be at least 1, got " + jobs);
        }
        if (overrides.threads() == null && jobs > 1 && !inProcess.enabled()) { // the workers share the processors
            overrides = overrides.withThreads(CheckOptions.defaultThreads(jobs));
        }
        Double timeout = timeoutOption.seconds(command);
        if (durations != null && durations < 0) {
            throw new ParameterException(command.commandLine(), "--durations must be 0 (every check) or more, got "
                    + durations);
        }
        if (collectOnly && format == ReportFormat.JUNIT) {
            throw new ParameterException(command.commandLine(), "--collect-only lists specs as a table or JSON;"
                    + " --format junit describes checks that ran");
        }
        List<Path> given = paths == null || paths.isEmpty() ? project.paths() : paths;
        if (given.isEmpty()) {
            throw new ParameterException(command.commandLine(), "no PATH given, and no paths: in a project file ("
                    + ProjectOptions.describe(projectOptions.config, workspace) + ")");
        }
        ReportWriter writer = new ReportWriter(console, format, output, color.mode, quiet, terminal);
        if (!writer.prepare()) { // now, not after the run: its results would be lost
            return ExitCode.USAGE.code();
        }
        SpecBatch batch = SpecBatch.load(given);
        batch.pathProblems().forEach(p -> console.err().println("gradcheck: " + p));
        RunCache cache = selection.cache(command, project, console.err());
        SelectionOptions.Selected selected = selection.select(command, batch.specs(), project, cache, console.err());
        if (collectOnly) {
            return collect(selected, batch, project, console);
        }
        if (inProcess.enabled() && jobs > 1) {
            console.err().println("gradcheck: --jobs applies to worker JVMs; --in-process checks one spec at a time");
        }
        PluginSet plugins = pluginOptions.loadOrReport(console.err(), project.plugins());
        if (plugins == null) {
            return ExitCode.USAGE.code();
        }

        RunConfiguration config = new RunConfiguration(selected.specs(), overrides,
                engineChoice == null ? null : engineChoice.engines(), !inProcess.enabled() && workerOptions != null,
                jobs, timeout, maxMemory.bytes, plugins, failFast).withJacobians(capture());
        ReportListener report = new ReportListener(
                writer, console,
                new ExitPolicy(!batch.pathProblems().isEmpty(), selected.empty(), requireBackend), start,
                details(startedAt, selected, project.ids()));
        try (EngineOutput.Shown shown = EngineOutput.showingTo(verbose ? console.err()::println : null);
             EnginePool pool = host.pool(config)) {
            RunSession session = new RunSession(config, pool);
            if (screen.hasStatusLine()) {
                session.addListener(new ProgressLine(screen));
            }
            session.addListener(new RunListener() {
                @Override
                public void notice(String message) {
                    console.err().println("gradcheck: " + message);
                }
            });
            session.addListener(cache.recorder(project.ids()));
            DumpOptions.Writer dumper = dump.listener(console.err());
            if (dumper != null) {
                session.addListener(dumper);
            }
            session.addListener(report);
            if (durations != null) {
                session.addListener(new SlowestChecks(durations, console.err()));
            }
            // Ctrl-C (SIGTERM, SIGHUP) ends the session: the report so far, still a valid report, with the exit
            // code of the interruption
            try (RunHost.Watch watch = host.onInterrupt(session::interrupt)) {
                session.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (session.wasInterrupted()) {
                return host.interruptedExitCode();
            }
            if (dumper != null && dumper.failed()) {
                return Math.max(report.exitCode(), ExitCode.USAGE.code());
            }
        }
        return report.exitCode();
    }

    /** The matrices the results carry: the failing blocks' for --dump and for the HTML page's heat maps. */
    private JacobianCapture capture() {
        return format == ReportFormat.HTML ? JacobianCapture.FAILING : dump.capture();
    }

    /** When and where this run is, its shard, and each check's id (from its location and name). */
    private RunDetails details(OffsetDateTime startedAt, SelectionOptions.Selected selected, SpecIds ids) {
        String shard = selected.shard() == null ? null : selected.shard().toString();
        return new RunDetails(startedAt, HostName.of(workspace.env()), shard, 0, false,
                r -> new RunDetails.CheckOrigin(ids.of(SpecIds.fileOf(r.location()), r.name()), shard), List.of());
    }

    /** --collect-only: the listing, to stdout or --output; exit 2 when it holds invalid specs or nothing. */
    private int collect(SelectionOptions.Selected selected, SpecBatch batch, Project project, Console console) {
        String text;
        try {
            text = format == ReportFormat.JSON
                    ? CollectListing.json(selected.specs(), batch.specs().size(), selected.shard(), project.ids(),
                            VersionProvider.version())
                    : CollectListing.table(selected.specs(), batch.specs().size(), selected.shard(), project.ids());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a StringWriter does not fail
        }
        boolean written = new ReportWriter(console, format, output, ColorMode.NEVER, false, terminal).writeText(text,
                selected.specs().size() + " specs selected");
        boolean invalid = selected.specs().stream().anyMatch(s -> !s.isValid());
        if (selected.specs().isEmpty() && selected.empty() != null) {
            console.err().println("gradcheck: no specs found" + selected.empty());
        }
        boolean usage = !written || invalid || !batch.pathProblems().isEmpty()
                || selected.specs().isEmpty() && selected.empty() != null;
        return usage ? ExitCode.USAGE.code() : ExitCode.OK.code();
    }
}
