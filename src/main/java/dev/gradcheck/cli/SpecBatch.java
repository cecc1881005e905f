package dev.gradcheck.cli;

import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.plugin.OpResolver;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecLoader;
import dev.gradcheck.spec.SpecPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Every spec document under the paths of a command line. A path that does not exist is a usage problem, listed
 * in {@link #pathProblems()}, but does not stop the specs found under the other paths.
 */
record SpecBatch(List<LoadedSpec> specs, List<String> pathProblems) {

    static SpecBatch load(List<Path> paths) {
        List<LoadedSpec> specs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        SpecLoader loader = new SpecLoader();
        for (Path path : paths) {
            try {
                for (Path file : SpecLoader.collect(List.of(path))) {
                    specs.addAll(loader.load(file));
                }
            } catch (SpecPathException e) {
                e.problems().forEach(p -> problems.add(p.toString()));
            }
        }
        return new SpecBatch(specs, problems);
    }

    /**
     * The specs with the op catalog's problems (unknown op, unknown or ill-typed attribute) added to each invalid
     * document's own, so that one run reports every problem of a document, in check as in validate.
     */
    static List<LoadedSpec> withOpProblems(List<LoadedSpec> specs, PluginSet plugins) {
        OpResolver resolver = new OpResolver(OpCatalog.nd4j(), plugins);
        return specs.stream().map(s -> s.isValid() || s.named() == null ? s
                : s.withMoreErrors(resolver.problems(s.named()))).toList();
    }
}
