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
import dev.gradcheck.cli.options.PluginOptions;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.op.catalog.LayerTypes;
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
import java.util.Optional;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;

/**
 * {@code gradcheck new OP}: a spec to start from, printed. A spec of gradcheck's own suite for the op comes first
 * ({@link SuiteExamples}: conv2d, layer_norm, pooling, batchnorm, ... with the attributes they need). Otherwise
 * ND4J's op descriptors give the inputs' names and order but neither their ranks nor the attributes' defaults, so
 * shapes are tried. Each try runs on ND4J (in a worker JVM, as {@code validate} builds and runs a spec once) until
 * one validates. Plugin ops ({@code --plugin}, GRADCHECK_PLUGIN_PATH) are written from their own description.
 */
@Command(name = "new", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Prints a spec for OP to start from: a spec of gradcheck's own suite for that op when it has"
            + " one (attributes and shapes that validate), else its inputs in ND4J's order with shapes and values,"
            + " its named arguments as comments to uncomment, and comments on what to change. Without --shape,"
            + " each is tried on ND4J (in a worker JVM) until one validates; the first lines say which.",
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

    @Mixin
    PluginOptions pluginOptions = new PluginOptions();

    private final BackendFactory inProcessBackends;
    private final WorkerOptions workerOptions;

    /**
     * The op, the shapes asked for (none: try) and the plugins loaded (its op may be one of theirs); or a DL4J layer
     * type instead of an op.
     */
    record Work(OpInfo op, List<List<Integer>> shapes, PluginSet plugins, LayerTypes layer) {}

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
        Optional<LayerTypes> layer = LayerTypes.find(opName);
        if (layer.isPresent()) {
            return new Work(null, List.of(), PluginSet.EMPTY, layer.get());
        }
        List<List<Integer>> parsed = new ArrayList<>();
        for (String s : shapes) {
            parsed.add(parseShape(s));
        }
        PluginSet plugins = start.plugins(pluginOptions);
        if (plugins == null) {
            return null;
        }
        OpCatalog catalog = OpCatalog.nd4j();
        List<OpInfo> pluginOps = plugins.describe();
        if (opName.contains(".") && catalog.find(opName).isEmpty()
                && pluginOps.stream().noneMatch(o -> o.name().equals(opName))) {
            // a layer's configuration class by its full name, a user's own in a --plugin jar: DL4J says on the engine
            return new Work(null, List.of(), plugins, LayerTypes.byClassName(opName, parsed.isEmpty() ? List.of(4, 6)
                    : parsed.get(0)));
        }
        OpInfo op = pluginOps.stream().filter(o -> o.name().equals(opName)).findFirst()
                .or(() -> catalog.find(opName).filter(OpInfo::checkable)).orElseThrow(() -> {
                    List<String> names = new ArrayList<>(catalog.checkableNames());
                    pluginOps.forEach(o -> names.add(o.name()));
                    return new ParameterException(command.commandLine(), "unknown op '"
                            + dev.gradcheck.report.SafeText.forTerminal(opName) + "'" + Suggestions.closest(opName,
                            names).map(s -> " (did you mean '" + s + "'?)").orElse("")
                            + "; `gradcheck list-ops` lists them (with --plugin, a plugin's too; `list-ops --layers` the DL4J layers)");
                });
        return new Work(op, parsed, plugins, null);
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
        if (work.layer() != null) {
            return layerSpec(work.layer(), work.plugins(), start);
        }
        String specName = name != null ? name : work.op().name();
        List<NewSpec> tries = new ArrayList<>();
        if (work.shapes().isEmpty()) {
            if (work.plugins().describe().stream().noneMatch(o -> o.name().equals(work.op().name()))) {
                SuiteExamples.forOp(work.op().name()).ifPresent(e -> tries.add(e.named(specName)));
            }
            tries.addAll(SpecTemplate.candidates(work.op(), specName));
        } else {
            tries.add(SpecTemplate.withShapes(work.op(), specName, work.shapes()));
        }
        Tried tried = tryAll(tries, work.plugins());
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

    /**
     * A DL4J layer's example spec (docs/dl4j.md), validated on an engine as a tried op spec is: DL4J builds the
     * layer and runs it once on the example's input.
     */
    private int layerSpec(LayerTypes layer, PluginSet plugins, Start start) {
        String specName = name != null ? name : layer.name();
        String text = layer.example(specName);
        List<String> problems;
        MaxMemoryOption memory = new MaxMemoryOption();
        try (Backend engine = inProcess.enabled() || workerOptions == null
                ? inProcessBackends.create(plugins, memory.budget())
                : new WorkerBackend(memory.on(workerOptions, plugins))) {
            LoadedSpec loaded = new SpecLoader().loadText(FILE, specName, text).get(0);
            problems = Validation.problems(engine.validate(new CheckRequest(loaded.spec(), Overrides.NONE,
                    TimeLimits.DEFAULT, JacobianCapture.NONE, text)), loaded.spec());
        }
        PrintWriter out = start.console().out();
        out.print("# A spec for " + (layer.name().contains(".") ? "the layer " : "DL4J's ") + layer.name()
                + ", written by `gradcheck new " + layer.name() + "`: its"
                + " input is " + layer.input() + ".\n# Options as DL4J's builders name them; every key:"
                + " docs/dl4j.md. " + (problems.isEmpty() ? "It validates: DL4J built the layer and ran it once."
                : "DL4J refused it: " + problems.get(0)) + "\n" + text);
        out.flush();
        return ExitCode.OK.code();
    }

    /** The template printed, and the problems of the first try when none validated (empty when one did). */
    private record Tried(NewSpec template, List<String> problems) {}

    /** Each template in turn, on one engine, until one validates; the first with its problems when none does. */
    private Tried tryAll(List<NewSpec> tries, PluginSet plugins) {
        OpResolver resolver = new OpResolver(OpCatalog.nd4j(), plugins);
        MaxMemoryOption memory = new MaxMemoryOption();
        List<String> firstProblems = null;
        try (Backend engine = inProcess.enabled() || workerOptions == null
                ? inProcessBackends.create(plugins, memory.budget())
                : new WorkerBackend(memory.on(workerOptions, plugins))) {
            for (NewSpec t : tries) {
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

    private static List<String> problems(NewSpec t, OpResolver resolver, Backend engine, MaxMemoryOption memory) {
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
