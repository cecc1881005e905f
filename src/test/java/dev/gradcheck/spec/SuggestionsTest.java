package dev.gradcheck.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SuggestionsTest {

    private static final List<String> KEYS = SpecValidator.KEYS;

    @Test
    void closeTyposFindTheirKey() {
        assertEquals(Optional.of("tolerance"), Suggestions.closest("tolerence", KEYS));
        assertEquals(Optional.of("no_grad"), Suggestions.closest("nograd", KEYS));
        assertEquals(Optional.of("no_grad"), Suggestions.closest("no-grad", KEYS));
        assertEquals(Optional.of("backends"), Suggestions.closest("backend", KEYS));
        assertEquals(Optional.of("op"), Suggestions.closest("Op", KEYS));
        assertEquals(Optional.of("max_relative_error"),
                Suggestions.closest("maxRelativeError", ToleranceValidator.KEYS));
    }

    @Test
    void distantWordsGetNoSuggestion() {
        assertEquals(Optional.empty(), Suggestions.closest("colour", KEYS));
        // Two edits turn any two-letter word into "op"; short words only get one.
        assertEquals(Optional.empty(), Suggestions.closest("id", KEYS));
    }

    /**
     * Issue 27, defect 8: a name no edit of two can bring near a candidate is not compared with it (a 1,000,000-
     * character op name was compared with all 720 ops, 33 s); a typo still is, with the same answer.
     */
    @Test
    void anAbsurdNameIsComparedWithNoCandidate() {
        List<String> ops = List.copyOf(dev.gradcheck.op.catalog.OpCatalog.nd4j().checkableNames());
        int[] compared = new int[1];
        Suggestions.Distance counting = (a, b) -> {
            compared[0]++;
            return Suggestions.editDistance(a, b);
        };
        assertEquals(Optional.empty(), Suggestions.closest("q".repeat(1_000_000), ops, counting));
        assertEquals(0, compared[0], "an absurd name compared with the ops");
        assertEquals(Optional.of("tanh"), Suggestions.closest("tanhh", ops, counting));
        assertEquals(Optional.of("tanh"), Suggestions.closest("tanhh", ops));
        assertEquals(true, compared[0] > 0 && compared[0] < ops.size(), "compared with " + compared[0]);
    }

    @Test
    void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        assertEquals(0, Suggestions.editDistance("shape", "shape"));
        assertEquals(1, Suggestions.editDistance("shpe", "shape"));
        assertEquals(2, Suggestions.editDistance("sahpe", "shape"));
        assertEquals(5, Suggestions.editDistance("", "shape"));
    }

    @Test
    void choicesAlwaysListTheValidValues() {
        assertEquals(" (did you mean 'full'?); valid: full, fast", Suggestions.choices("ful", List.of("full", "fast")));
        assertEquals("; valid: full, fast", Suggestions.choices("exhaustive", List.of("full", "fast")));
    }
}
