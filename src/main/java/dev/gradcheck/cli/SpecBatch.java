package dev.gradcheck.cli;

import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.plugin.OpResolver;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecLoader;
import dev.gradcheck.spec.SpecPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every spec document under the paths of a command line. A path that does not exist is a usage problem, listed
 * in {@link #pathProblems()}, but does not stop the specs found under the other paths.
 */
record SpecBatch(List<LoadedSpec> specs, List<String> pathProblems, Map<String, String> texts) {

    /** @param texts each file's text as read, by the file's name as the specs' positions give it */
    SpecBatch {
        texts = texts == null ? Map.of() : texts;
    }

    SpecBatch(List<LoadedSpec> specs, List<String> pathProblems) {
        this(specs, pathProblems, Map.of());
    }

    static SpecBatch load(List<Path> paths) {
        List<LoadedSpec> specs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, String> texts = new HashMap<>();
        SpecLoader loader = new SpecLoader();
        for (Path path : paths) {
            try {
                for (Path file : SpecLoader.collect(List.of(path))) {
                    SpecLoader.FileSpecs read = loader.loadFile(file);
                    specs.addAll(read.specs());
                    if (read.text() != null) {
                        texts.put(file.toString(), read.text());
                    }
                }
            } catch (SpecPathException e) {
                e.problems().forEach(p -> problems.add(p.toString()));
            }
        }
        return new SpecBatch(specs, problems, texts);
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
