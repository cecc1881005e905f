package dev.gradcheck.cli;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.EngineOutput;
import dev.gradcheck.backend.EnginePool;
import dev.gradcheck.backend.SharedJvm;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.cli.options.Bounds;
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
import dev.gradcheck.cli.options.ProjectOptions;
import dev.gradcheck.cli.options.RepositoryRoot;
import dev.gradcheck.cli.options.SelectionOptions;
import dev.gradcheck.cli.options.TimeoutOption;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.cli.output.EarlySignal;
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
import dev.gradcheck.run.RunOutcome;
import dev.gradcheck.run.RunSession;
import dev.gradcheck.run.Shard;
import dev.gradcheck.spec.CheckOptions;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.Overrides;
import dev.gradcheck.spec.SpecIds;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

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
public final class CheckCommand extends AbstractCommand<CheckCommand.Work> {

    @Parameters(arity = "0..*", paramLabel = "PATH",
            description = "Spec files or directories (default: the project file's paths:).")
    List<Path> paths;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            converter = FormatConverter.class,
            completionCandidates = FormatConverter.Names.class,
            description = "Report format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); json is versioned"
                    + " (${sys:gradcheck.docs:-docs}/report-schema.md, `gradcheck docs report-schema`), junit is JUnit XML for CI servers, html one"
                    + " self-contained page with a heat map of each failing Jacobian block, github GitHub Actions"
                    + " annotations (one ::error per unexpected result, on the spec's line).")
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

    @Option(names = "--durations", paramLabel = "N", converter = Bounds.NotNegative.class,
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

    @Option(names = "--junit-file-line", description = "With --format junit: give each <testcase> the file and"
            + " line of its spec (GitLab shows them; pytest's xunit1). Off by default: junit-10.xsd, which Jenkins"
            + " checks reports against, has no such attributes.")
    boolean junitFileLine;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", defaultValue = "1", converter = Bounds.Jobs.class,
            description = "CPU worker JVMs checking specs side by side (default: ${DEFAULT-VALUE}). Each costs about"
                    + " 2 s to start and its own ND4J threads: more than the number of cores rarely helps; at most "
                    + Bounds.MAX_JOBS + ".")
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

    private final WorkerOptions workerOptions;
    private final RunHost host;
    private final Terminal terminal;
    /** What a signal does at each moment of this command (made anew by each call, as the shell calls again). */
    private Interruption interruption;
    /** Where this run draws: its status line, and the report and messages around it (made by {@link #console()}). */
    private Screen screen;

    /** What the command does once configured: list the selection ({@code --collect-only}), or run it. */
    sealed interface Work permits Listing, Run {}

    /** {@code --collect-only}: the specs found and those the selection picks. */
    record Listing(SpecBatch batch, SelectionOptions.Selected selected) implements Work {}

    /**
     * A run of the selected specs.
     *
     * @param writer where the report goes, readied already
     * @param cache  the cache of the last runs, which records this one
     */
    record Run(SpecBatch batch, SelectionOptions.Selected selected, RunCache cache, ReportWriter writer,
               RunConfiguration config) implements Work {}

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
        super(workspace);
        this.workerOptions = workerOptions;
        this.host = host;
        this.terminal = terminal;
    }

    @Override
    Console console() {
        screen = new Screen(command.commandLine().getOut(), command.commandLine().getErr(),
                terminal.errTerminal() && terminal.smartTerm(), terminal.errColumns(), terminal.reportTerminal());
        return Console.of(screen);
    }

    /**
     * From the moment the arguments are parsed a signal ends with a report: the JVM's shutdown hook is added now,
     * not when the run starts (specs, plugins and engines take seconds to ready, and a signal then left no report).
     */
    @Override
    RunHost.Watch watchSignals() {
        Interruption now = new Interruption();
        interruption = now;
        RunHost.Watch hook = host.onInterrupt(now::interrupt);
        EarlySignal.handOver(); // the hook added before the arguments were parsed has nothing more to do
        return () -> {
            now.over();
            hook.close();
        };
    }

    @Override
    ProjectOptions projectOptions() {
        return projectOptions;
    }

    @Override
    void validate() {
        if (collectOnly && format.listing() == ReportFormat.Listing.NONE) {
            throw new ParameterException(command.commandLine(), "--collect-only lists specs as a table or JSON;"
                    + " --format " + format.cliName() + " describes checks that ran");
        }
    }

    /** The selection (a listing of it with --collect-only), the report's writer, the run's configuration. */
    @Override
    Work configure(Start start) {
        PrintWriter err = start.console().err();
        List<Path> given = pathsOrProject(paths, start.project());
        ReportWriter writer = new ReportWriter(start.console(), format, output, color.mode, quiet, terminal)
                .junitFileLine(junitFileLine);
        if (!writer.prepare()) { // now, not after the run: its results would be lost
            return null;
        }
        if (collectOnly) {
            interruption.over(); // a listing, not a report: a signal just ends it
        } else {
            ReportListener early = new ReportListener(writer, start.console(), new ExitPolicy(false, null, false),
                    start.nanos(), details(start.startedAt(), null, start.project().ids()));
            // a signal from now until the run starts: the report of a run interrupted before any check finished
            interruption.then(() -> early.runInterrupted(new RunOutcome(List.of(), 0, true)));
        }
        SpecBatch batch = start.specs(given);
        RunCache cache = selection.cache(command, start.project(), err);
        SelectionOptions.Selected selected = selection.select(command, batch.specs(), start.project(), cache, err);
        if (collectOnly) {
            return new Listing(batch, selected);
        }
        if (inProcess.enabled() && jobs > 1) {
            err.println("gradcheck: --jobs applies to worker JVMs; --in-process checks one spec at a time");
        }
        PluginSet plugins = start.plugins(pluginOptions, timeoutOption.seconds());
        if (plugins == null) {
            return null;
        }
        List<LoadedSpec> specs = new ArrayList<>(batch.pathProblemsAsSpecs()); // whatever the selection
        specs.addAll(SpecBatch.withOpProblems(selected.specs(), plugins));
        return new Run(batch, selected, cache, writer, runConfiguration(specs, plugins, batch.texts()));
    }

    @Override
    int execute(Work work, Start start) {
        return work instanceof Listing listing ? collect(listing, start) : run((Run) work, start);
    }

    /** What the options ask of a run of these specs. */
    /** @param texts each spec file's text as read here: a worker checks what was validated, not the file again */
    private RunConfiguration runConfiguration(List<LoadedSpec> specs, PluginSet plugins, Map<String, String> texts) {
        Overrides overrides = checking.overrides();
        if (overrides.threads() == null && jobs > 1 && !inProcess.enabled()) { // the workers share the processors
            overrides = overrides.withThreads(CheckOptions.defaultThreads(jobs));
        }
        boolean inWorkers = inWorkers(specs, plugins);
        return RunConfiguration.builder(specs).overrides(overrides)
                .engines(engineChoice == null ? null : engineChoice.engines())
                .inWorkers(inWorkers).jobs(jobs).lanesHere(SharedJvm.taken() ? SharedJvm.lanes(specs.size()) : 1)
                .timeout(timeoutOption.seconds()).maxMemory(maxMemory.bytes).plugins(plugins)
                .failFast(failFast).jacobians(capture()).texts(texts).build();
    }

    /**
     * Workers, unless {@code --in-process}, or the launcher offered this JVM for a small run that asks for nothing
     * only workers give (SharedJvm: the launcher reruns the command in workers if this JVM crashes).
     */
    private boolean inWorkers(List<LoadedSpec> specs, PluginSet plugins) {
        if (inProcess.enabled() || workerOptions == null) {
            SharedJvm.decline(); // in this JVM, but as --in-process is: a crash ends the run
            return false;
        }
        boolean needsWorker = jobs > 1 || maxMemory.bytes != null || !plugins.isEmpty()
                || System.getenv(WorkerOptions.USER_OPTIONS_ENV) != null;
        return !SharedJvm.take(specs, engineChoice == null ? null : engineChoice.engines(), needsWorker);
    }

    /** The matrices the results carry: those the format draws (HTML's heat maps) and those --dump writes. */
    private JacobianCapture capture() {
        return format.matrices().union(dump.capture());
    }

    /** Runs the checks, the report and the other listeners hearing them; returns the exit code. */
    private int run(Run run, Start start) {
        Console console = start.console();
        ReportListener report = new ReportListener(run.writer(), console,
                new ExitPolicy(!run.batch().pathProblems().isEmpty(), run.selected().empty(), requireBackend),
                start.nanos(), details(start.startedAt(), run.selected().shard(), start.project().ids()));
        try (EngineOutput.Shown shown = EngineOutput.showingTo(verbose ? console.err()::println : null);
             EnginePool pool = host.pool(run.config())) {
            RunSession session = new RunSession(run.config(), pool);
            DumpOptions.Writer dumper = listen(session, report, run.cache().recorder(start.project().ids()),
                    console);
            // Ctrl-C (SIGTERM, SIGHUP) ends the session: the report so far, still a valid report, with the exit
            // code of the interruption; a signal that came while it was readied has written the report already
            if (!interruption.then(session::interrupt)) {
                return host.interruptedExitCode();
            }
            try {
                session.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            interruption.then(() -> { }); // the report is out: a later signal only ends the process
            if (session.wasInterrupted()) {
                return host.interruptedExitCode();
            }
            if (dumper != null && dumper.failed()) {
                return Math.max(report.exitCode(), ExitCode.USAGE.code());
            }
        }
        return report.exitCode();
    }

    /**
     * Adds the run's listeners, in the order they hear each event: the status line, notices, the cache's
     * recorder, --dump, the report, --durations.
     *
     * @return --dump's writer, or null without --dump
     */
    private DumpOptions.Writer listen(RunSession session, ReportListener report, RunListener recorder,
                                      Console console) {
        if (screen.hasStatusLine()) {
            session.addListener(new ProgressLine(screen));
        }
        session.addListener(new RunListener() {
            @Override
            public void notice(String message) {
                console.err().println("gradcheck: " + message);
            }
        });
        session.addListener(recorder);
        DumpOptions.Writer dumper = dump.listener(console.err());
        if (dumper != null) {
            session.addListener(dumper);
        }
        session.addListener(report);
        if (durations != null) {
            session.addListener(new SlowestChecks(durations, console.err()));
        }
        return dumper;
    }

    /**
     * When and where this run is, its shard, and each check's id (from its location and name) and file in the
     * repository (for GitHub's annotations).
     */
    private RunDetails details(OffsetDateTime startedAt, Shard selectedShard, SpecIds ids) {
        String shard = selectedShard == null ? null : selectedShard.toString();
        RepositoryRoot repository = RepositoryRoot.of(workspace).orElse(null);
        return new RunDetails(startedAt, HostName.of(workspace.env()), shard, 0, false, r -> {
            String file = SpecIds.fileOf(r.location());
            return new RunDetails.CheckOrigin(ids.of(file, r.name()), shard,
                    repository == null ? null : repository.relative(workspace.workingDirectory(), file));
        }, List.of());
    }

    /** --collect-only: the listing, to stdout or --output; exit 2 when it holds invalid specs or nothing. */
    private int collect(Listing listing, Start start) {
        SelectionOptions.Selected selected = listing.selected();
        SpecBatch batch = listing.batch();
        Console console = start.console();
        String text = CollectListing.of(format.listing(), selected.specs(), batch.specs().size(), selected.shard(),
                start.project().ids());
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

    /** Every code there is: a run can end with any of them. */
    @Override
    public Map<String, String> exitCodeHelp() {
        return ExitCode.listed(ExitCode.values());
    }

    @Override
    public boolean highestApplies() {
        return true;
    }
}
