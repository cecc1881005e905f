package dev.gradcheck.cli;

import dev.gradcheck.op.OpCatalog;
import dev.gradcheck.op.OpResolver;
import dev.gradcheck.op.PluginSet;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code gradcheck validate PATH...}: read and validate specs, run nothing. */
@Command(name = "validate", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Parses and validates specs without running them: YAML, keys, types, shapes, and that each"
            + " op exists and takes the attributes given; for graph specs also unknown names, cycles, unused nodes and"
            + " inputs, and nodes whose input shapes do not fit. Prints each problem as file:line:col: message."})
final class ValidateCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Spec files or directories.")
    List<Path> paths;

    @Mixin
    PluginOptions pluginOptions;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() {
        Console console = Console.of(command);
        SpecBatch batch = SpecBatch.load(paths);
        batch.pathProblems().forEach(p -> console.err().println("gradcheck: " + p));
        PluginSet plugins = pluginOptions.loadOrReport(console.err());
        if (plugins == null) {
            return ExitCode.USAGE.code();
        }
        OpResolver builder = null;
        int invalid = 0;
        for (LoadedSpec loaded : batch.specs()) {
            List<SpecError> errors = new ArrayList<>(loaded.errors());
            if (loaded.isValid()) {
                if (builder == null) {
                    builder = new OpResolver(OpCatalog.nd4j(), plugins);
                }
                try {
                    builder.validate(loaded.spec());
                } catch (InvalidSpecException e) {
                    errors.addAll(e.errors());
                }
            }
            if (!errors.isEmpty()) {
                invalid++;
                errors.forEach(e -> console.out().println(e));
            }
        }
        int total = batch.specs().size();
        console.out().println(total + " spec" + (total == 1 ? "" : "s") + ": " + (total - invalid) + " valid, "
                + invalid + " invalid");
        console.out().flush();
        return invalid > 0 || !batch.pathProblems().isEmpty() ? ExitCode.USAGE.code() : ExitCode.OK.code();
    }
}
