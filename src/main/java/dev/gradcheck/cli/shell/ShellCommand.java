package dev.gradcheck.cli.shell;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.cli.options.ColorOption;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.ExitCodeHelp;
import dev.gradcheck.cli.options.InProcessOption;
import dev.gradcheck.cli.options.MaxMemoryOption;
import dev.gradcheck.cli.options.PluginOptions;
import dev.gradcheck.cli.options.TimeoutOption;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.run.RunHost;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.spi.SystemStream;
import org.jline.terminal.spi.TerminalProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code gradcheck shell}: the interactive shell with a warm worker ({@link Shell}). */
@Command(name = "shell", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "An interactive shell: load a spec, change it (delta, tolerance, mode, attributes, input values), check"
                + " it again and again on one warm worker JVM, so a re-check costs the check and not a start-up."
                + " Every gradcheck command works at its prompt too. Type 'help' there.",
            "At a terminal: line editing, Tab completion (commands, options, paths, op names, spec keys), history"
                + " kept across sessions, Ctrl-C stops a check. Piped input is read as a script: results on stdout,"
                + " each failing line reported on stderr with its number, and the script goes on."},
        footer = {"%nExamples (from gradcheck's own directory):",
            "  gradcheck shell specs/activations/smooth.yaml --name softplus-rank2",
            "  printf 'load specs/activations/smooth.yaml softplus-rank2\\ncheck\\ndelta 1e-4\\ncheck\\nexit\\n'"
                + " | gradcheck shell"})
public final class ShellCommand implements Callable<Integer>, ExitCodeHelp {

    static final String HISTORY_ENV = "GRADCHECK_HISTORY";

    @Parameters(arity = "0..1", paramLabel = "SPEC", description = "A spec file to load at the start.")
    Path spec;

    @Option(names = "--name", paramLabel = "NAME", description = "Which spec of SPEC to load (default: its first).")
    String name;

    @Option(names = "--history", paramLabel = "FILE",
            description = "Where the history of typed lines is kept (default: $" + HISTORY_ENV
                    + ", else ~/.gradcheck_history).")
    Path history;

    @Option(names = "--no-history", description = "Keep no history file.")
    boolean noHistory;

    @Mixin
    ColorOption color = new ColorOption();

    @Mixin
    TimeoutOption timeoutOption = new TimeoutOption();

    @Mixin
    MaxMemoryOption maxMemory = new MaxMemoryOption();

    @Mixin
    InProcessOption inProcess = new InProcessOption();

    @Mixin
    PluginOptions pluginOptions;

    @Spec
    CommandSpec command;

    private final CommandTree commands;
    private final BackendFactory backends;
    private final WorkerOptions workers;
    private final dev.gradcheck.cli.term.Terminal screen;
    /** Where lines come from: stdin, unless a test gives a script. */
    InputStream input = System.in;
    /** Whether input is a terminal; null: ask JLine. Tests set it. */
    Boolean interactive;

    /** @param screen whether stdout and stderr are terminals, and how wide: what the shell's commands draw on */
    public ShellCommand(BackendFactory backends, WorkerOptions workers, dev.gradcheck.cli.term.Terminal screen,
                        CommandTree commands) {
        this.commands = commands;
        this.backends = backends;
        this.workers = workers;
        this.screen = screen;
    }

    @Override
    public Integer call() throws IOException {
        Console console = Console.of(command);
        Double timeout = timeoutOption.seconds();
        PluginSet plugins = pluginOptions.loadOrReport(console.err(), List.of(), timeout);
        if (plugins == null) {
            return ExitCode.USAGE.code();
        }
        try (WarmEngines engines = new WarmEngines(backends, inProcess.enabled() ? null : workers, plugins,
                maxMemory.bytes, timeout)) {
            RunHost host = engines;
            Shell shell = new Shell(console.out(), console.err(), screen, screen.colors(color.mode), engines,
                    commands.build(console.out(), console.err(), inProcess.enabled() ? null : workers, host));
            if (engines.inWorkers()) {
                engines.warmUpInBackground();
            }
            int start = ExitCode.OK.code();
            if (spec != null) {
                List<String> load = name == null ? List.of("load", spec.toString())
                        : List.of("load", spec.toString(), name);
                start = shell.run(load, String.join(" ", load));
            }
            if (interactive != null ? interactive : inputIsTerminal()) {
                try (Terminal terminal = terminal()) {
                    return shell.runInteractive(terminal, historyFile());
                }
            }
            BufferedReader script = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
            return Math.max(start, shell.runScript(script));
        }
    }

    /** A script's lines are commands: its code is the highest of theirs. */
    @Override
    public Map<String, String> exitCodeHelp() {
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put("0", "at a terminal; reading a script, every line succeeded");
        codes.put("1", "reading a script: a line's check found a gradient mismatch, or an expected failure passed");
        codes.put("2", "usage error (of the shell, or of a script's line), or an invalid spec");
        codes.put("3", "reading a script: in a line's check an operator errored, crashed or timed out");
        codes.put("", "'exit CODE' ends the shell with CODE");
        return codes;
    }

    @Override
    public boolean highestApplies() {
        return true;
    }

    /** The history file: --history, else $GRADCHECK_HISTORY, else ~/.gradcheck_history; null with --no-history. */
    Path historyFile() {
        if (noHistory) {
            return null;
        }
        if (history != null) {
            return history;
        }
        String env = System.getenv(HISTORY_ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".gradcheck_history");
    }

    /**
     * The terminal the prompt and line editing go to: stderr when it is a terminal (as bash's prompt does, so
     * stdout carries results alone), else stdout. TERM=dumb gives JLine's dumb terminal: no cursor movement.
     */
    private Terminal terminal() throws IOException {
        return TerminalBuilder.builder().system(true).systemOutput(TerminalBuilder.SystemOutput.SysErrOrSysOut)
                .name("gradcheck").dumb(true).build();
    }

    private static boolean inputIsTerminal() {
        try {
            return TerminalProvider.load("jni").isSystemStream(SystemStream.Input);
        } catch (Exception | LinkageError e) {
            return System.console() != null;
        }
    }
}
