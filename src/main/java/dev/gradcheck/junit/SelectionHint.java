package dev.gradcheck.junit;

import dev.gradcheck.run.SelectionHints;
import dev.gradcheck.run.SpecSelection;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecIds;
import java.util.List;

/**
 * Why the engine's selection keys left no test of the specs found, as a failing test says it: an empty suite that
 * passes would hide a misspelt {@code gradcheck.only} as well as a misspelt path.
 */
final class SelectionHint {

    private SelectionHint() {}

    static String nothingSelected(SpecSelection selection, List<LoadedSpec> found, SpecIds ids) {
        StringBuilder text = new StringBuilder("gradcheck: ");
        if (!selection.only().isEmpty()) {
            text.append(EngineSettings.ONLY).append('=').append(selection.only()).append(' ');
        }
        if (!selection.skip().isEmpty()) {
            text.append(EngineSettings.SKIP).append('=').append(selection.skip()).append(' ');
        }
        if (selection.tags() != null) {
            text.append(EngineSettings.TAG).append("='").append(selection.tags()).append("' ");
        }
        if (selection.keywords() != null) {
            text.append(EngineSettings.KEYWORD).append("='").append(selection.keywords()).append("' ");
        }
        text.append("left none of the ").append(found.size()).append(found.size() == 1 ? " spec" : " specs")
                .append(" found");
        SelectionHints.of(selection, found, ids).forEach(h -> text.append("\n  ").append(h));
        return text.toString();
    }
}
