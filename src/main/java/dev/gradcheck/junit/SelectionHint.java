package dev.gradcheck.junit;

import dev.gradcheck.run.SpecSelection;

/**
 * Why the engine's selection keys left no test of the specs found, as a failing test says it: an empty suite that
 * passes would hide a misspelt {@code gradcheck.only} as well as a misspelt path.
 */
final class SelectionHint {

    private SelectionHint() {}

    static String nothingSelected(SpecSelection selection, int found) {
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
        return text.append("left none of the ").append(found).append(found == 1 ? " spec" : " specs")
                .append(" found").toString();
    }
}
