package dev.gradcheck.cli;

import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.CheckRequest;
import dev.gradcheck.backend.TimeLimits;
import dev.gradcheck.backend.Validation;
import dev.gradcheck.backend.WorkerBackend;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.InProcessOption;
import dev.gradcheck.cli.options.MaxMemoryOption;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.op.catalog.OpInfo;
import dev.gradcheck.op.plugin.OpResolver;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.Overrides;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.SpecLoader;
import dev.gradcheck.spec.Printable;
import dev.gradcheck.spec.Suggestions;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;

/**
 * {@code gradcheck new OP}: a spec to start from, printed. ND4J's op descriptors give the inputs' names and order
 * but neither their ranks nor the attributes' defaults, so the shapes are tried on ND4J (in a worker JVM, as
 * {@code validate} builds and runs a spec once) until one validates.
 */
@Command(name = "new", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Prints a spec for OP to start from: its inputs in ND4J's order with shapes and values, its"
            + " named arguments as comments to uncomment, and comments on what to change. Without --shape, shapes"
            + " are tried on ND4J (in a worker JVM) until the spec validates; the first line says which.",
            "Save it and check it: gradcheck new tanh > tanh.yaml && gradcheck check tanh.yaml"})
final class NewCommand extends AbstractCommand<NewCommand.Work> {

    /** The name the tried specs' problems carry: they come from no file. */
    private static final String FILE = "new.yaml";

    @Parameters(index = "0", paramLabel = "OP", completionCandidates = OpNames.class,
            description = "The op, as `gradcheck list-ops` names it.")
    String opName;

    @Option(names = "--shape", paramLabel = "SHAPE", description = "The shape of the next floating input, e.g."
            + " 3,4 or [3, 4] (repeatable: one per input, the last one for the rest). Used as given, not tried.")
    List<String> shapes = new ArrayList<>();

    @Option(names = "--name", paramLabel = "NAME", description = "The spec's name (default: the op's).")
    String name;

    @Mixin
    InProcessOption inProcess = new InProcessOption();

    private final BackendFactory inProcessBackends;
    private final WorkerOptions workerOptions;

    /** The op and the shapes asked for (none: try). */
    record Work(OpInfo op, List<List<Integer>> shapes) {}

    /**
     * @param inProcessBackends the engine with {@code --in-process}
     * @param workerOptions     how to start the worker JVM that tries the shapes; null runs them in this JVM
     */
    NewCommand(BackendFactory inProcessBackends, WorkerOptions workerOptions, Workspace workspace) {
        super(workspace);
        this.inProcessBackends = inProcessBackends;
        this.workerOptions = workerOptions;
    }

    @Override
    Work configure(Start start) {
        OpCatalog catalog = OpCatalog.nd4j();
        OpInfo op = catalog.find(opName).filter(OpInfo::checkable).orElseThrow(() -> new ParameterException(
                command.commandLine(), "unknown op '" + Printable.quoted(opName) + "'" + Suggestions.closest(opName,
                        catalog.checkableNames()).map(s -> " (did you mean '" + s + "'?)").orElse("")
                        + "; `gradcheck list-ops` lists them"));
        List<List<Integer>> parsed = new ArrayList<>();
        for (String s : shapes) {
            parsed.add(parseShape(s));
        }
        return new Work(op, parsed);
    }

    private List<Integer> parseShape(String text) {
        String inner = text.strip().replaceAll("^\\[|]$", "").strip();
        List<Integer> dims = new ArrayList<>();
        try {
            for (String d : inner.isEmpty() ? new String[0] : inner.split("\\s*[,x]\\s*")) {
                int v = Integer.parseInt(d.strip());
                if (v < 1) {
                    throw new NumberFormatException();
                }
                dims.add(v);
            }
        } catch (NumberFormatException e) {
            throw new ParameterException(command.commandLine(), "--shape '" + text + "': expected dimensions of at"
                    + " least 1 separated by commas, e.g. 3,4 or [3, 4] ([] for a scalar)");
        }
        return dims;
    }

    @Override
    int execute(Work work, Start start) {
        String specName = name != null ? name : work.op().name();
        List<SpecTemplate> tries = work.shapes().isEmpty() ? SpecTemplate.candidates(work.op(), specName)
                : List.of(SpecTemplate.withShapes(work.op(), specName, work.shapes()));
        Tried tried = tryAll(tries);
        PrintWriter out = start.console().out();
        String note = tried.problems().isEmpty()
                ? "It validates: ND4J built " + work.op().name() + " on these shapes and ran it once."
                : "ND4J refused " + (work.shapes().isEmpty() ? "every shape tried; the first" : "these shapes")
                        + ": " + tried.problems().get(0).replaceFirst("^" + FILE + ":\\d+:\\d+: ", "")
                        .replaceAll("\\s*\\n\\s*", "; ") + ". Change the shapes (and attrs) as the op needs.";
        out.print(tried.template().yaml(note));
        out.flush();
        if (!tried.problems().isEmpty()) {
            start.console().err().println("gradcheck: this spec for " + work.op().name() + " does not validate yet;"
                    + " its first comment says why");
        }
        return ExitCode.OK.code();
    }

    /** The template printed, and the problems of the first try when none validated (empty when one did). */
    private record Tried(SpecTemplate template, List<String> problems) {}

    /** Each template in turn, on one engine, until one validates; the first with its problems when none does. */
    private Tried tryAll(List<SpecTemplate> tries) {
        OpResolver resolver = new OpResolver(OpCatalog.nd4j(), PluginSet.EMPTY);
        MaxMemoryOption memory = new MaxMemoryOption();
        List<String> firstProblems = null;
        try (Backend engine = inProcess.enabled() || workerOptions == null
                ? inProcessBackends.create(PluginSet.EMPTY, memory.budget())
                : new WorkerBackend(memory.on(workerOptions, PluginSet.EMPTY))) {
            for (SpecTemplate t : tries) {
                List<String> problems = problems(t, resolver, engine, memory);
                if (problems.isEmpty()) {
                    return new Tried(t, List.of());
                }
                if (firstProblems == null) {
                    firstProblems = problems;
                }
            }
        }
        return new Tried(tries.get(0), firstProblems);
    }

    private static List<String> problems(SpecTemplate t, OpResolver resolver, Backend engine, MaxMemoryOption memory) {
        String text = t.yaml(null);
        LoadedSpec loaded = new SpecLoader().loadText(FILE, t.name(), text).get(0);
        if (!loaded.isValid()) {
            return loaded.errors().stream().map(SpecError::toString).toList();
        }
        try {
            resolver.validateStatic(loaded.spec(), memory.budget());
        } catch (InvalidSpecException e) {
            return e.errors().stream().map(SpecError::toString).toList();
        }
        CheckRequest request = new CheckRequest(loaded.spec(), Overrides.NONE, TimeLimits.DEFAULT,
                JacobianCapture.NONE, text); // a worker reads the text, there being no file
        return Validation.problems(engine.validate(request), loaded.spec());
    }

    @Override
    public Map<String, String> exitCodeHelp() {
        return ExitCode.successOrUsage("an unknown op, a bad --shape, or output not written in full");
    }
}
