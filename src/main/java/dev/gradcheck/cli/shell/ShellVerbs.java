package dev.gradcheck.cli.shell;

import dev.gradcheck.backend.EngineOutput;
import dev.gradcheck.cli.options.CheckingOptions;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.term.HeatMapScreen;
import dev.gradcheck.cli.term.JacobianNumbers;
import dev.gradcheck.report.ReportContext;
import dev.gradcheck.report.ReportFormat;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import dev.gradcheck.run.RunOutcome;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecDocument;
import dev.gradcheck.spec.SpecError;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What the shell adds to gradcheck's commands: verbs that load a spec, change it in memory, check it again on the
 * warm worker and look at the result. Each is a picocli command (a method here), so it has help, usage errors and
 * completion like every other command. Results go to {@code out}; what is only news (a spec loaded, a worker
 * restarted) goes to {@code err}.
 */
@Command(name = "shell-verbs")
final class ShellVerbs {

    /**
     * Verbs whose last parameter is a YAML value: it is taken from the typed line as it is (quotes, braces and
     * spaces kept) after this many words, rather than split as shell words.
     */
    static final Map<String, Integer> YAML_AFTER = Map.of("set", 2, "delta", 1, "tolerance", 1, "attr", 2, "input", 2);

    private final WorkingSpec working;
    private final WarmEngines engines;
    private final Shell shell;

    ShellVerbs(WorkingSpec working, WarmEngines engines, Shell shell) {
        this.working = working;
        this.engines = engines;
        this.shell = shell;
    }

    @Command(name = "load", description = "Load a spec to work on: the first document of FILE, or the one named"
            + " NAME. Edits and checks apply to it until the next load.")
    int load(@Parameters(paramLabel = "FILE", description = "A spec file.") Path file,
             @Parameters(paramLabel = "NAME", arity = "0..1", description = "A spec's name in the file.") String name) {
        SpecDocument doc = working.load(file, name);
        List<SpecDocument> all = working.fileDocs();
        String others = all.size() > 1 ? " (" + file + " holds " + all.size() + " specs: "
                + String.join(", ", WorkingSpec.names(all)) + "; 'load FILE NAME' picks another)" : "";
        err().println("loaded " + describe(doc.spec()) + " from " + file + others);
        return reportInvalid(doc);
    }

    @Command(name = "show", description = "Print the spec being worked on as YAML: the file's text, or the edited"
            + " document the next check reads, after a comment listing the edits.")
    int show() {
        SpecDocument doc = working.doc();
        if (doc.edited()) {
            out().println("# " + doc.file() + ", edited: " + String.join("; ", doc.edits()));
        }
        out().print(doc.text());
        out().flush();
        return ExitCode.OK.code();
    }

    @Command(name = "set", description = {"Set a spec key in memory (the file is left alone), e.g.",
        "  set delta 1e-4", "  set tolerance {atol: 1e-5, rtol: 1e-3}", "  set attrs.dimension 0",
        "  set inputs.x.init {values: [[1, 2], [3, 4]]}",
        "A dotted KEY reaches into mappings and lists; VALUE is YAML, as in a spec file."})
    int set(@Parameters(paramLabel = "KEY", description = "A spec key, or a dotted path into one.") String key,
            @Parameters(paramLabel = "VALUE", description = "The new value, in YAML.") String value) {
        return reportInvalid(working.edit(d -> d.set(key, value)));
    }

    @Command(name = "unset", description = "Remove a spec key (its default applies again), e.g. unset delta.")
    int unset(@Parameters(paramLabel = "KEY", description = "A spec key, or a dotted path into one.") String key) {
        return reportInvalid(working.edit(d -> d.unset(key)));
    }

    @Command(name = "delta", description = "Set the finite-difference step: delta 1e-4 (set delta 1e-4).")
    int delta(@Parameters(paramLabel = "STEP", description = "A positive number.") String step) {
        return set("delta", step);
    }

    @Command(name = "tolerance", description = {"Set the comparison rule:",
        "  tolerance 1e-6                 max_relative_error 1e-6 (Paddle's rule)",
        "  tolerance atol=1e-5 rtol=1e-3  the allclose rule",
        "  tolerance {atol: 1e-5, rtol: 1e-3}"})
    int tolerance(@Parameters(paramLabel = "RULE", description = "A number, NAME=VALUE pairs, or a YAML mapping.")
                  String rule) {
        return set("tolerance", toleranceYaml(rule.strip()));
    }

    @Command(name = "mode", description = "Set the checking mode (set mode MODE).")
    int mode(@Parameters(paramLabel = "MODE", completionCandidates = CheckingOptions.ModeNames.class,
            description = "${COMPLETION-CANDIDATES}") String mode) {
        return set("mode", mode);
    }

    @Command(name = "attr", description = "Set an op attribute: attr dimension 0 (set attrs.dimension 0).")
    int attr(@Parameters(paramLabel = "ATTR", description = "The attribute's name, as list-ops shows it.") String name,
             @Parameters(paramLabel = "VALUE", description = "Its value, in YAML.") String value) {
        return set("attrs." + name, value);
    }

    @Command(name = "input", description = {"Set an input's values:",
        "  input x [[1, 2], [3, 4]]        init: {values: ...}",
        "  input x constant 0.5            init: {constant: 0.5}; also uniform, normal, range"})
    int input(@Parameters(paramLabel = "INPUT", description = "The input's name.") String name,
              @Parameters(paramLabel = "VALUES", description = "Values in YAML, or an init kind and its argument.")
              String values) {
        return set("inputs." + name + ".init", initYaml(values.strip()));
    }

    @Command(name = "rerun", aliases = "r", description = "Check the spec as it stands, on the warm worker (also:"
            + " check, with no PATH).")
    int rerun(@Option(names = {"-v", "--verbose"}, description = "Show what ND4J and libnd4j print during the check"
            + " on stderr (kept in the result's log otherwise).") boolean verbose) throws InterruptedException {
        SpecDocument doc = working.doc();
        RunOutcome outcome;
        try (EngineOutput.Shown shown = EngineOutput.showingTo(verbose ? err()::println : null)) {
            outcome = checkShowingTime();
        }
        if (outcome.interrupted()) {
            err().println("interrupted; the worker is being restarted");
            return ExitCode.INTERRUPTED.code();
        }
        List<CheckResult> results = outcome.results();
        int exit = ExitCode.of(results);
        ReportContext ctx = new ReportContext(shell.color(), VersionProvider.version())
                .withColumns(shell.tableColumns());
        try {
            ReportFormat.TABLE.renderer().render(results, Summary.of(results, outcome.seconds(), exit), ctx, out());
        } catch (IOException e) {
            err().println("gradcheck: cannot write the result: " + e.getMessage());
        }
        out().flush();
        String change = change(working.previous(), working.last(), doc);
        if (change != null) {
            err().println(change);
        }
        CheckResult result = working.last();
        if (result != null && engines.inWorkers()
                && (result.status() == Status.CRASHED || result.status() == Status.TIMEOUT)) {
            err().println("the warm worker " + (result.status() == Status.CRASHED ? "crashed" : "was stopped (over"
                    + " its time limit)") + "; a new one is starting");
            engines.warmUpInBackground();
        }
        return exit;
    }

    @Command(name = "explain", description = "Check the spec as it stands and draw each Jacobian block: numerical,"
            + " analytic and difference heat maps, the mismatch count and pattern ('explain FILE' is the gradcheck"
            + " command, for any spec file).")
    int explain() throws InterruptedException {
        CheckResult result = checkQuietly();
        if (result == null) {
            return ExitCode.INTERRUPTED.code();
        }
        new HeatMapScreen(shell.color(), shell.width()).print(result, out());
        return ExitCode.of(List.of(result));
    }

    @Command(name = "jacobians", aliases = "jac", description = "Print the Jacobian blocks of the last check as"
            + " numbers, numerical above analytic (the spec is checked first if it has not been): the columns the"
            + " width holds, the first " + JacobianNumbers.ROWS + " rows, and the digits it takes for each"
            + " mismatching entry's two sides (marked *) to differ.")
    int jacobians() throws InterruptedException {
        CheckResult result = working.last() != null ? working.last() : checkQuietly();
        if (result == null) {
            return ExitCode.INTERRUPTED.code();
        }
        JacobianNumbers.print(result, out(), shell.width());
        return ExitCode.OK.code();
    }

    /** Checks the spec, at a terminal with the time it has taken under the prompt ({@link ElapsedLine}). */
    private RunOutcome checkShowingTime() throws InterruptedException {
        ElapsedLine line = ElapsedLine.start(err(), working.doc().spec().name(), shell.interactive());
        try {
            return working.check(engines);
        } finally {
            if (line != null) {
                line.close();
            }
        }
    }

    /** Checks the spec without printing the table; null when interrupted. */
    private CheckResult checkQuietly() throws InterruptedException {
        RunOutcome outcome = checkShowingTime();
        if (outcome.interrupted() || outcome.results().isEmpty()) {
            err().println("interrupted");
            return null;
        }
        return outcome.results().get(0);
    }

    @Command(name = "reset", description = "Drop every edit: the spec as its file has it.")
    int reset() {
        working.edit(SpecDocument::reset);
        return ExitCode.OK.code();
    }

    @Command(name = "save", description = "Write the spec as edited to FILE (without FILE: back to the file it was"
            + " loaded from, when that holds only this spec), keeping the file's comments and layout: only the top-level"
            + " keys edited are written anew.")
    int save(@Parameters(paramLabel = "FILE", arity = "0..1", description = "Where to write it.") Path file,
             @Option(names = "--force", description = "Replace FILE if it exists.") boolean force)
            throws IOException {
        SpecDocument doc = working.doc();
        Path target = file;
        if (target == null) {
            if (working.fileDocs().size() > 1) {
                throw new IllegalArgumentException(doc.file() + " holds " + working.fileDocs().size()
                        + " specs; 'save FILE' writes this one to a file of its own");
            }
            target = doc.file();
        } else if (Files.exists(target) && !force) {
            throw new IllegalArgumentException(target + " exists; 'save " + target + " --force' replaces it");
        }
        Files.writeString(target, doc.savedText(), StandardCharsets.UTF_8);
        err().println("wrote " + doc.spec().name() + " to " + target);
        return ExitCode.OK.code();
    }

    @Command(name = "help", description = "List the commands, or show one in full.")
    int help(@Parameters(paramLabel = "COMMAND", arity = "0..1", description = "A command's name.") String command) {
        return shell.help(command);
    }

    @Command(name = "exit", aliases = "quit", description = "Leave the shell (also Ctrl-D). Without CODE: 0 at a"
            + " terminal; reading a script, the highest exit code of its lines.")
    int exit(@Parameters(paramLabel = "CODE", arity = "0..1", description = "The exit code.") Integer code) {
        shell.requestExit(code);
        return ExitCode.OK.code();
    }

    private int reportInvalid(SpecDocument doc) {
        LoadedSpec spec = doc.spec();
        if (spec.isValid()) {
            return ExitCode.OK.code();
        }
        for (SpecError e : spec.errors()) {
            err().println(e);
        }
        err().println("(the spec is invalid until this is fixed; 'show' prints it, 'reset' drops the edits)");
        return ExitCode.USAGE.code();
    }

    /** "softmax-rows (softmax, x[4, 7] float64)" */
    static String describe(LoadedSpec loaded) {
        if (!loaded.isValid()) {
            return loaded.name() + " (invalid)";
        }
        var spec = loaded.spec();
        List<String> inputs = spec.inputs().stream().map(i -> i.name() + java.util.Arrays.toString(i.shape()) + " "
                + i.dtype().name().toLowerCase(Locale.ROOT)).toList();
        return spec.name() + " (" + spec.op().value() + ", " + String.join(", ", inputs) + ")";
    }

    /**
     * What changed since the previous check of the same spec, or null when there is nothing to say: the previous
     * result, then the edits the spec carries now ({@code was passed, ... (now edited: delta: 2)}); they are the
     * new values, so they are not labelled as what came before.
     */
    static String change(CheckResult before, CheckResult now, SpecDocument doc) {
        if (before == null || now == null) {
            return null;
        }
        String was = summary(before);
        String is = summary(now);
        if (was.equals(is)) {
            return null;
        }
        return "was " + was + (doc.edited() ? " (now edited: " + String.join("; ", doc.edits()) + ")" : "");
    }

    private static String summary(CheckResult r) {
        GradientResult worst = r.gradients() == null || r.gradients().isEmpty() ? null : r.worstGradient();
        return dev.gradcheck.report.StatusLabel.of(r.status()) + (worst == null ? ""
                : String.format(Locale.ROOT, ", worst d%s/d%s rel err %.2e", worst.output(), worst.input(),
                        worst.maxRelError()));
    }

    /** "1e-6" -> {max_relative_error: 1e-6}; "atol=1e-5 rtol=1e-3" -> {atol: 1e-5, rtol: 1e-3}; YAML as it is. */
    static String toleranceYaml(String rule) {
        if (rule.matches("[-+0-9.eE]+")) {
            return "{max_relative_error: " + rule + "}";
        }
        if (rule.contains("=")) {
            StringBuilder yaml = new StringBuilder("{");
            for (String pair : rule.split("[\\s,]+")) {
                String[] kv = pair.split("=", 2);
                if (kv.length != 2 || kv[0].isBlank()) {
                    throw new IllegalArgumentException("'" + pair + "' is not NAME=VALUE (e.g. atol=1e-5)");
                }
                yaml.append(yaml.length() > 1 ? ", " : "").append(kv[0].strip()).append(": ").append(kv[1].strip());
            }
            return yaml.append('}').toString();
        }
        return rule;
    }

    /** "[1, 2]" -> {values: [1, 2]}; "constant 0.5" -> {constant: 0.5}; a mapping as it is. */
    static String initYaml(String values) {
        String[] words = values.split("\\s+", 2);
        if (words.length == 2 && SpecDocument.initKinds().contains(words[0])) {
            return "{" + words[0] + ": " + words[1] + "}";
        }
        if (values.startsWith("{")) {
            return values;
        }
        return "{values: " + values + "}";
    }

    private PrintWriter out() {
        return shell.out();
    }

    private PrintWriter err() {
        return shell.err();
    }
}
