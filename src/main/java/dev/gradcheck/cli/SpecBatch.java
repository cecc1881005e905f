package dev.gradcheck.cli;

import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.plugin.OpResolver;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SourcePos;
import dev.gradcheck.spec.SpecError;
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
record SpecBatch(List<LoadedSpec> specs, List<SpecPathException.Problem> pathProblems, Map<String, String> texts) {

    /** @param texts each file's text as read, by the file's name as the specs' positions give it */
    SpecBatch {
        texts = texts == null ? Map.of() : texts;
    }

    SpecBatch(List<LoadedSpec> specs, List<SpecPathException.Problem> pathProblems) {
        this(specs, pathProblems, Map.of());
    }

    static SpecBatch load(List<Path> paths) {
        List<LoadedSpec> specs = new ArrayList<>();
        List<SpecPathException.Problem> problems = new ArrayList<>();
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
                problems.addAll(e.problems());
            }
        }
        return new SpecBatch(specs, problems, texts);
    }

    /**
     * Each path that named nothing as an invalid spec of that name at {@code path:1:1}, so that it is a row of every
     * report (JSON, JUnit, HTML, GitHub, the table) and counts in their totals, as stderr's line alone did not: a CI
     * test tab must not show green while the job fails for a misspelt path.
     */
    List<LoadedSpec> pathProblemsAsSpecs() {
        return pathProblems.stream().map(p -> {
            SourcePos pos = SourcePos.ofFile(p.path().toString());
            return new LoadedSpec(pos, p.path().toString(), null, List.of(new SpecError(pos, p.reason())));
        }).toList();
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
