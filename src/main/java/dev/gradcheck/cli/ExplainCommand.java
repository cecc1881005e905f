package dev.gradcheck.cli;

import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.cli.options.CheckingOptions;
import dev.gradcheck.cli.options.ColorOption;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.InProcessOption;
import dev.gradcheck.cli.options.PluginOptions;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.cli.term.HeatMapScreen;
import dev.gradcheck.cli.term.Terminal;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.report.ReportContext;
import dev.gradcheck.report.ReportFormat;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.result.Summary;
import dev.gradcheck.run.RunConfiguration;
import dev.gradcheck.run.RunHost;
import dev.gradcheck.run.RunOutcome;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.SpecLoader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gradcheck explain}: checks a spec and draws each Jacobian block it compared ({@link HeatMapScreen}). */
@Command(name = "explain", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {"Check the specs of SPEC (or the one named NAME) and draw, for every Jacobian block compared,"
                + " the numerical, analytic and difference Jacobians as heat maps, with the block's verdict and how"
                + " many entries mismatch and where. Colour on a terminal; two characters per cell otherwise."},
        footer = {"%nExamples:",
            "  gradcheck explain specs/activations/smooth.yaml --name softplus-rank2",
            "  gradcheck explain specs/linalg/matrix.yaml --name matrix-inverse-batch --html inverse.html",
            "%nThe pictures fit the terminal's width ($COLUMNS wins; 120 when stdout is not a terminal). Colour as"
                + " --color says: by default on a terminal, unless NO_COLOR is set (FORCE_COLOR turns it on)."})
public final class ExplainCommand extends AbstractCommand<ExplainCommand.Work> {

    @Parameters(paramLabel = "SPEC", description = "A spec file.")
    Path spec;

    @Option(names = "--name", paramLabel = "NAME", description = "Draw only the spec of this name.")
    String name;

    @Option(names = "--html", paramLabel = "FILE",
            description = "Also write the pictures as one self-contained HTML page (SVG heat maps).")
    Path html;

    @Mixin
    ColorOption color = new ColorOption();

    @Mixin
    InProcessOption inProcess = new InProcessOption();

    @Mixin
    CheckingOptions checking = new CheckingOptions();

    @Mixin
    PluginOptions pluginOptions;

    private final WorkerOptions workers;
    private final RunHost host;
    private final Terminal terminal;

    /**
     * The specs to draw and the plugins whose ops they may name.
     *
     * @param invalid whether a spec of them has errors (said on stderr): the exit code is at least 2
     */
    record Work(List<LoadedSpec> specs, boolean invalid, PluginSet plugins) {}

    /** @param terminal whether stdout is a terminal and how wide: the pictures' colour and width */
    ExplainCommand(WorkerOptions workers, RunHost host, Workspace workspace, Terminal terminal) {
        super(workspace);
        this.workers = workers;
        this.host = host;
        this.terminal = terminal;
    }

    /** The file's specs (the one of --name), their errors said, and the plugins. */
    @Override
    Work configure(Start start) {
        Console console = start.console();
        List<LoadedSpec> inFile = new SpecLoader().load(spec);
        List<LoadedSpec> specs = inFile;
        if (name != null) {
            specs = inFile.stream().filter(s -> s.name().equals(name)).toList();
            if (specs.isEmpty()) {
                console.err().println("gradcheck: no spec named '" + name + "' in " + spec + "; it has: "
                        + String.join(", ", inFile.stream().map(LoadedSpec::name).toList()));
                return null;
            }
        }
        boolean invalid = false;
        for (LoadedSpec s : specs) {
            for (SpecError e : s.errors()) {
                console.err().println(e);
                invalid = true;
            }
        }
        PluginSet plugins = start.plugins(pluginOptions);
        return plugins == null ? null : new Work(specs, invalid, plugins);
    }

    /** Checks the specs with every block's matrices, draws each result, and writes the page --html asks for. */
    @Override
    int execute(Work work, Start start) throws InterruptedException {
        Console console = start.console();
        RunConfiguration config = RunConfiguration.builder(work.specs()).overrides(checking.overrides())
                .inWorkers(!inProcess.enabled() && workers != null).plugins(work.plugins())
                .jacobians(JacobianCapture.ALL).build();
        RunOutcome outcome = host.run(config);
        if (outcome.interrupted()) {
            return host.interruptedExitCode();
        }
        HeatMapScreen screen = new HeatMapScreen(terminal.colors(color.mode),
                terminal.pictureColumns(HeatMapScreen.PICTURE_COLUMNS));
        for (CheckResult r : outcome.results()) {
            screen.print(r, console.out());
            console.out().println();
        }
        int exit = Math.max(ExitCode.of(outcome.results()), work.invalid() ? ExitCode.USAGE.code() : 0);
        if (html != null && !writeHtml(outcome, exit, console)) {
            return ExitCode.USAGE.code();
        }
        console.out().flush();
        return exit;
    }

    /** --html: the same pictures as one page; false after saying on stderr why it could not be written. */
    private boolean writeHtml(RunOutcome outcome, int exit, Console console) {
        try (Writer w = Files.newBufferedWriter(html, StandardCharsets.UTF_8)) {
            Summary summary = Summary.of(outcome.results(), outcome.seconds(), exit);
            ReportFormat.HTML.renderer().render(outcome.results(), summary,
                    ReportContext.plain(VersionProvider.version())
                            .withLinkBase(ReportContext.linkBaseFor(html.toAbsolutePath().getParent())), w);
        } catch (IOException e) {
            console.err().println("gradcheck: cannot write " + html + ": " + e.getMessage());
            return false;
        }
        console.err().println("wrote " + html);
        return true;
    }

    /** A check of each spec, then its pictures. */
    @Override
    public Map<String, String> exitCodeHelp() {
        Map<String, String> codes = ExitCode.listed(ExitCode.OK, ExitCode.MISMATCH);
        codes.put("2", "usage error, an invalid spec, no spec of that --name, or an HTML page or output that could"
                + " not be written");
        codes.put("3", ExitCode.OP_ERROR.meaning());
        codes.put("130", "interrupted (Ctrl-C): nothing is drawn");
        return codes;
    }

    @Override
    public boolean highestApplies() {
        return true;
    }
}
