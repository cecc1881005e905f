package dev.gradcheck.cli;

import dev.gradcheck.backend.Backend;
import dev.gradcheck.check.CheckResult;
import dev.gradcheck.check.Status;
import dev.gradcheck.check.Summary;
import dev.gradcheck.op.PluginSet;
import dev.gradcheck.report.ReportFormat;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import dev.gradcheck.spec.Overrides;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
            "  gradcheck check specs/ --mode fast --max-elements 64",
            "  gradcheck check --plugin my-ops.jar my-specs/"})
final class CheckCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Spec files or directories.")
    List<Path> paths;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            converter = FormatConverter.class,
            description = "Report format: table, json or junit (JUnit XML for CI servers) (default: ${DEFAULT-VALUE}).")
    ReportFormat format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the report to FILE instead of stdout; the summary line still goes to stderr.")
    Path output;

    @Option(names = "--only", paramLabel = "GLOB",
            description = "Check only specs whose name or file path matches GLOB (* and ?); repeatable.")
    List<String> only = new ArrayList<>();

    @Option(names = "--fail-fast",
            description = "Stop at the first spec that did not end as expected; the report holds what ran.")
    boolean failFast;

    @Option(names = "--no-color", description = "Never colour the table (colour is used only on a terminal).")
    boolean noColor;

    @Mixin
    CheckingOptions checking = new CheckingOptions();

    @Mixin
    PluginOptions pluginOptions;

    @Spec
    CommandSpec command;

    private final Function<PluginSet, Backend> backends;

    CheckCommand(Function<PluginSet, Backend> backends) {
        this.backends = backends;
    }

    @Override
    public Integer call() {
        long start = System.nanoTime();
        Overrides overrides = checking.overrides(command);
        SpecBatch batch = SpecBatch.load(paths);
        Console console = Console.of(command);
        batch.pathProblems().forEach(p -> console.err().println("gradcheck: " + p));
        PluginSet plugins = pluginOptions.loadOrReport(console.err());
        if (plugins == null) {
            return ExitCode.USAGE.code();
        }

        List<Glob> globs = only.stream().map(Glob::new).toList();
        List<CheckResult> results = new ArrayList<>();
        Backend backend = null;
        try {
            for (LoadedSpec loaded : batch.specs()) {
                if (!selected(loaded, globs)) {
                    continue;
                }
                CheckResult result;
                if (loaded.isValid()) {
                    if (backend == null) {
                        backend = backends.apply(plugins); // only pay for the engine when a spec needs it
                    }
                    result = backend.run(loaded.spec().with(overrides));
                } else {
                    result = invalid(loaded);
                }
                results.add(result);
                if (failFast && result.status().exitCode() != 0) {
                    break;
                }
            }
        } finally {
            if (backend != null) {
                backend.close();
            }
        }
        Summary summary = Summary.of(results, (System.nanoTime() - start) / 1e9);
        boolean usageProblem = !batch.pathProblems().isEmpty();
        if (results.isEmpty()) {
            // a CI job that checks nothing must not look green
            console.err().println("gradcheck: no specs found" + (only.isEmpty() ? "" : " matching --only " + only));
            usageProblem = true;
        }
        int exit = Math.max(summary.exitCode(), usageProblem ? ExitCode.USAGE.code() : 0);
        boolean written = new ReportWriter(console, format, output, !noColor).write(results, summary);
        return written ? exit : Math.max(exit, ExitCode.USAGE.code());
    }

    private static boolean selected(LoadedSpec spec, List<Glob> globs) {
        if (globs.isEmpty()) {
            return true;
        }
        String file = spec.pos().file();
        return globs.stream().anyMatch(g -> g.matches(spec.name()) || g.matches(file));
    }

    private static CheckResult invalid(LoadedSpec loaded) {
        String message = String.join("\n", loaded.errors().stream().map(SpecError::toString).toList());
        return new CheckResult(loaded.name(), loaded.pos().toString(), "", "", "", Status.INVALID, "pass", null,
                message, List.of(), "", 0, 0);
    }
}
