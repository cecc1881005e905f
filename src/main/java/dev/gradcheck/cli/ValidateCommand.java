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
import dev.gradcheck.cli.options.Project;
import dev.gradcheck.cli.options.ProjectOptions;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.plugin.OpResolver;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.Overrides;
import dev.gradcheck.spec.SpecError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code gradcheck validate PATH...}: read and validate specs, run nothing. */
@Command(name = "validate", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Parses and validates specs without checking gradients: YAML, keys, types, shapes, masks, and"
            + " that each op exists and takes the attributes given; an ND4J op is then built, in a worker JVM, on the"
            + " values check draws, so inputs its shape function rejects (matmul of [3, 2] by [3, 4]) and arguments"
            + " its kernel rejects when run once (softmax over dimension 5 of a rank-2 input), outputs it does not"
            + " have, and whatever else check would report invalid are found too, built as check builds it; for graph"
            + " specs also unknown names, cycles, unused nodes and inputs, and nodes whose input shapes do not fit (a"
            + " graph is run once, in a worker JVM); specs over --max-memory, weighed as check weighs them. Prints"
            + " each problem as file:line:col: message; a bad spec or file never stops the others.",
            "Op names and attributes are checked against the op catalog recorded at build time, in this JVM and"
                + " without ND4J; the worker, the only JVM that starts ND4J, starts as soon as the specs are read if"
                + " one of them needs it, and --static leaves out everything that runs an op."})
final class ValidateCommand extends AbstractCommand<ValidateCommand.Work> {

    @Parameters(arity = "0..*", paramLabel = "PATH",
            description = "Spec files or directories (default: the project file's paths:).")
    List<Path> paths;

    @Mixin
    PluginOptions pluginOptions;

    @Mixin
    MaxMemoryOption maxMemory = new MaxMemoryOption();

    @Option(names = "--static", description = "Check only what needs no run: everything above except whether a"
            + " graph's node shapes and outputs fit. No worker JVM and no ND4J are started (about 2 s less).")
    boolean staticOnly;

    @Mixin
    InProcessOption inProcess = new InProcessOption();

    @Mixin
    ProjectOptions projectOptions;

    private final BackendFactory inProcessBackends;
    private final WorkerOptions workerOptions;

    /** The specs to validate and the plugins whose ops they may name. */
    record Work(SpecBatch batch, PluginSet plugins) {}

    /**
     * @param inProcessBackends the engine that runs graph specs with {@code --in-process}, made for the run's plugins
     *                          and memory budget
     * @param workerOptions     how to start the worker JVM that runs graph specs; null runs them in this JVM
     * @param workspace         where the command runs (gradcheck.yaml is looked for from there)
     */
    ValidateCommand(BackendFactory inProcessBackends, WorkerOptions workerOptions, Workspace workspace) {
        super(workspace);
        this.inProcessBackends = inProcessBackends;
        this.workerOptions = workerOptions;
    }

    @Override
    ProjectOptions projectOptions() {
        return projectOptions;
    }

    @Override
    Work configure(Start start) {
        SpecBatch batch = start.specs(pathsOrProject(paths, start.project()));
        PluginSet plugins = start.plugins(pluginOptions);
        return plugins == null ? null
                : new Work(new SpecBatch(SpecBatch.withOpProblems(batch.specs(), plugins), batch.pathProblems(),
                        batch.texts()), plugins);
    }

    @Override
    int execute(Work work, Start start) {
        Console console = start.console();
        SpecBatch batch = work.batch();
        int invalid = validateAll(batch, work.plugins(), !inProcess.enabled() && workerOptions != null, console);
        int total = batch.specs().size();
        console.out().println(total + " spec" + (total == 1 ? "" : "s") + ": " + (total - invalid) + " valid, "
                + invalid + " invalid");
        console.out().flush();
        return invalid > 0 || !batch.pathProblems().isEmpty() ? ExitCode.USAGE.code() : ExitCode.OK.code();
    }

    @Override
    public Map<String, String> exitCodeHelp() {
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put("0", "every spec is valid");
        codes.put("2", "a spec is invalid, a path was not found, a usage error, or output that could not be written"
                + " in full");
        return codes;
    }

    /**
     * Prints every problem and returns how many specs have any. One-op specs are validated in this JVM first (names,
     * attributes, masks, their inputs' size: no op runs), then, if that passed and the op is ND4J's, on the engine
     * (built on the values check draws, shape function, one forward); graph specs, which run their ops once, on the
     * engine only. The engine is a worker JVM, so that a crash costs one spec. Nothing a spec does stops the
     * others. (A validation without ND4J would stop before the engine.)
     */
    private int validateAll(SpecBatch batch, PluginSet plugins, boolean isolated, Console console) {
        OpResolver resolver = new OpResolver(OpCatalog.nd4j(), plugins); // the catalog alone: no ND4J
        Backend engine = null;
        int invalid = 0;
        try {
            // first what needs no ND4J, for every spec (the catalog, in this JVM; quick)
            List<List<String>> problemsOf = new ArrayList<>();
            List<Boolean> runsOpsOf = new ArrayList<>();
            for (LoadedSpec loaded : batch.specs()) {
                List<String> problems = new ArrayList<>(loaded.errors().stream().map(SpecError::toString).toList());
                boolean graph = loaded.isValid() && loaded.spec().graph() != null;
                if (loaded.isValid() && (!graph || staticOnly)) {
                    problems.addAll(validateStatically(resolver, loaded.spec(), maxMemory.budget()));
                }
                problemsOf.add(problems);
                runsOpsOf.add(!staticOnly
                        && (graph || problems.isEmpty() && loaded.isValid() && resolver.runsOps(loaded.spec())));
            }
            if (isolated && runsOpsOf.contains(true)) {
                engine = new WorkerBackend(maxMemory.on(workerOptions, plugins));
                engine.prestart(); // its JVM and ND4J start now; the first validation below waits for them
            }
            for (int i = 0; i < batch.specs().size(); i++) {
                LoadedSpec loaded = batch.specs().get(i);
                List<String> problems = problemsOf.get(i);
                // what only ND4J running can tell (a graph run once; a one-op spec's shapes and first forward),
                // for specs that passed everything before, on the engine, where a crash costs one spec
                if (runsOpsOf.get(i)) {
                    if (engine == null) {
                        engine = isolated ? new WorkerBackend(maxMemory.on(workerOptions, plugins))
                                : inProcessBackends.create(plugins, maxMemory.budget());
                    }
                    // the text the front end read goes with the spec: a worker never reads the file again
                    problems.addAll(Validation.problems(engine.validate(new CheckRequest(loaded.spec(),
                            Overrides.NONE, TimeLimits.DEFAULT, JacobianCapture.NONE,
                            batch.texts().get(loaded.spec().pos().file()))), loaded.spec()));
                }
                if (!problems.isEmpty()) {
                    invalid++;
                    problems.forEach(console.out()::println);
                }
            }
        } finally {
            if (engine != null) {
                engine.close();
            }
        }
        return invalid;
    }

    /** Names, attributes and inputs' size, against the op catalog: Java only, no ND4J, nothing to isolate. */
    private static List<String> validateStatically(OpResolver resolver, OpSpec spec, MemoryBudget budget) {
        try {
            resolver.validateStatic(spec, budget);
            return List.of();
        } catch (InvalidSpecException e) {
            return e.errors().stream().map(SpecError::toString).toList();
        }
    }
}
