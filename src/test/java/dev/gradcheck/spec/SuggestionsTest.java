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
