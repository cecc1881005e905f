package dev.gradcheck.cli.shell;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.run.RunConfiguration;
import dev.gradcheck.run.RunOutcome;
import dev.gradcheck.spec.SpecDocument;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The spec the shell works on: the document loaded, as edited since, and the results of its last two checks (so a
 * re-check can say what changed). Checks run on the shell's warm engines, the edited text travelling with each.
 */
final class WorkingSpec {

    private SpecDocument doc;
    private List<SpecDocument> fileDocs = List.of();
    private CheckResult last;
    private CheckResult previous;

    /** Whether a spec is loaded. */
    boolean loaded() {
        return doc != null;
    }

    /** The document; an error that says what to do when none is loaded. */
    SpecDocument doc() {
        if (doc == null) {
            throw new IllegalArgumentException("no spec loaded: 'load FILE' first");
        }
        return doc;
    }

    /** The other documents of the loaded file (for completion of names). */
    List<SpecDocument> fileDocs() {
        return fileDocs;
    }

    CheckResult last() {
        return last;
    }

    CheckResult previous() {
        return previous;
    }

    /**
     * Loads the document named {@code name} from {@code file}, or its first one.
     *
     * @throws IllegalArgumentException when there is no such document
     */
    SpecDocument load(Path file, String name) {
        List<SpecDocument> docs = SpecDocument.read(file);
        SpecDocument chosen = docs.isEmpty() ? null : docs.get(0);
        if (name != null) {
            chosen = docs.stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow(
                    () -> new IllegalArgumentException("no spec named '" + name + "' in " + file
                            + (docs.isEmpty() ? "" : "; it has: " + String.join(", ", names(docs)))));
        }
        if (chosen == null) {
            throw new IllegalArgumentException(file + " holds no spec");
        }
        if (!chosen.editable()) { // nothing to work on: say why, and keep the spec loaded before
            throw new IllegalArgumentException(String.join("\n", chosen.spec().errors().stream()
                    .map(Object::toString).toList()));
        }
        doc = chosen;
        fileDocs = docs;
        last = null;
        previous = null;
        return chosen;
    }

    static List<String> names(List<SpecDocument> docs) {
        return docs.stream().map(SpecDocument::name).toList();
    }

    /** Applies an edit to the loaded document. */
    SpecDocument edit(UnaryOperator<SpecDocument> change) {
        doc = change.apply(doc());
        return doc;
    }

    /**
     * Checks the document as it stands on the shell's engines; an edited one travels as text, so the worker checks
     * exactly what {@code show} prints.
     */
    RunOutcome check(WarmEngines engines) throws InterruptedException {
        SpecDocument d = doc();
        String text = d.textForWorker();
        RunConfiguration config = engines.configure(List.of(d.spec()),
                text == null ? Map.of() : Map.of(d.label(), text));
        RunOutcome outcome = engines.run(config);
        if (!outcome.interrupted() && !outcome.results().isEmpty()) {
            previous = last;
            last = outcome.results().get(0);
        }
        return outcome;
    }
}
