package dev.gradcheck.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SourcePos;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.SpecIds;
import dev.gradcheck.spec.TagExpression;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --only / --skip globs (java.nio PathMatcher) against names and paths, and --tag. */
class SpecSelectionTest {

    private static final SpecIds IDS = new SpecIds(Path.of("/proj"), Path.of("/proj"));

    private static LoadedSpec spec(String file, String name, String... tags) {
        SourcePos pos = new SourcePos(file, 1, 1);
        return new LoadedSpec(pos, name, null, List.of(new SpecError(pos, "placeholder")), List.of(tags));
    }

    private static final LoadedSpec SOFTMAX = spec("specs/activations/softmax.yaml", "softmax-rows", "fast");
    private static final LoadedSpec LSTM = spec("specs/recurrent/lstm/lstm.yaml", "lstm-basic", "slow");
    private static final LoadedSpec CONV = spec("specs/conv/conv2d.yml", "conv2d-nchw", "slow", "cuda");
    private static final List<LoadedSpec> ALL = List.of(SOFTMAX, LSTM, CONV);

    private static List<String> names(List<String> only, List<String> skip, String tags) throws Exception {
        return new SpecSelection(only.stream().map(Glob::of).toList(), skip.stream().map(Glob::of).toList(),
                tags == null ? null : TagExpression.parse(tags), null).apply(ALL, IDS).stream().map(LoadedSpec::name)
                .toList();
    }

    @Test
    void starStaysWithinOneSegmentAndDoubleStarCrossesThem() throws Exception {
        assertEquals(List.of("lstm-basic"), names(List.of("specs/recurrent/**"), List.of(), null));
        assertEquals(List.of(), names(List.of("specs/recurrent/*"), List.of(), null), "lstm.yaml is one level down");
        assertEquals(List.of("lstm-basic"), names(List.of("specs/recurrent/*/*"), List.of(), null));
        assertEquals(List.of(), names(List.of("specs*"), List.of(), null), "* does not cross '/'");
        assertEquals(List.of("softmax-rows", "lstm-basic", "conv2d-nchw"), names(List.of("specs/**"), List.of(),
                null));
    }

    @Test
    void bracesBracketsAndQuestionMarks() throws Exception {
        assertEquals(List.of("softmax-rows", "conv2d-nchw"), names(List.of("specs/{activations,conv}/*"), List.of(),
                null));
        assertEquals(List.of("conv2d-nchw"), names(List.of("**/*.{yml}"), List.of(), null));
        assertEquals(List.of("conv2d-nchw"), names(List.of("conv[0-9]d-*"), List.of(), null));
        assertEquals(List.of("lstm-basic"), names(List.of("ls?m-*"), List.of(), null));
        assertEquals(List.of("softmax-rows", "conv2d-nchw"), names(List.of("[!l]*"), List.of(), null));
    }

    @Test
    void namesAndBothSpellingsOfThePathMatch() throws Exception {
        assertEquals(List.of("softmax-rows"), names(List.of("softmax*"), List.of(), null), "by name");
        assertEquals(List.of("softmax-rows"), names(List.of("specs/activations/softmax.yaml"), List.of(), null));
        LoadedSpec absolute = spec("/proj/specs/activations/softmax.yaml", "softmax-rows");
        SpecSelection relative = new SpecSelection(List.of(Glob.of("specs/activations/*")), List.of(), null, null);
        assertTrue(relative.selects(absolute, IDS), "an absolute path matches by its path relative to the root");
    }

    @Test
    void skipAppliesAfterOnlyAndTagsAfterBoth() throws Exception {
        assertEquals(List.of("softmax-rows"), names(List.of(), List.of("**/recurrent/**", "conv*"), null));
        assertEquals(List.of("lstm-basic", "conv2d-nchw"), names(List.of(), List.of(), "slow"));
        assertEquals(List.of("lstm-basic"), names(List.of(), List.of(), "slow and not cuda"));
        assertEquals(List.of("conv2d-nchw"), names(List.of("specs/**"), List.of("**/lstm/**"), "slow or fast and x"));
        assertFalse(new SpecSelection(List.of(), List.of(), TagExpression.parse("fast"), null).selects(LSTM, IDS));
    }

    private static final LoadedSpec CUMSUM = spec("specs/reductions/cumulative.yaml", "cumsum-axis0");
    private static final LoadedSpec CUMPROD0 = spec("specs/reductions/cumulative.yaml", "cumprod-axis0");
    private static final LoadedSpec CUMPROD1 = spec("specs/reductions/cumulative.yaml", "cumprod-axis1");
    private static final List<LoadedSpec> CUMULATIVE = List.of(CUMSUM, CUMPROD0, CUMPROD1, SOFTMAX);

    private static List<String> keywords(String expression) throws Exception {
        return new SpecSelection(List.of(), List.of(), null, TagExpression.parseKeywords(expression))
                .apply(CUMULATIVE, IDS).stream().map(LoadedSpec::name).toList();
    }

    /** -k as pytest's: substrings of the name, op or file, ignoring case, joined by and, or, not, parentheses. */
    @Test
    void keywordsAreSubstringsOfNameOpOrFile() throws Exception {
        assertEquals(List.of("cumprod-axis0", "cumprod-axis1"), keywords("cumprod"));
        assertEquals(List.of("cumprod-axis1"), keywords("cumprod and not axis0"));
        assertEquals(List.of("cumsum-axis0", "softmax-rows"), keywords("CumSum or (activations and rows)"));
        assertEquals(List.of("cumsum-axis0", "cumprod-axis0", "cumprod-axis1"), keywords("reductions/"),
                "by the file's path");
        TagExpression.SyntaxException e = assertThrows(TagExpression.SyntaxException.class,
                () -> TagExpression.parseKeywords("cumprod and"));
        assertEquals("expected a keyword or '(' after 'and'", e.getMessage());
        assertEquals(12, e.column());
    }

    @Test
    void nothingSelectedSaysWhatWasMeant() throws Exception {
        SpecSelection typo = new SpecSelection(List.of(), List.of(), null, TagExpression.parseKeywords("cumprd"));
        assertEquals(List.of("no spec's name, op or file holds 'cumprd' (did you mean 'cumprod'?)"),
                SelectionHints.of(typo, CUMULATIVE, IDS));
        SpecSelection whole = new SpecSelection(List.of(Glob.of("cumprod")), List.of(), null, null);
        assertEquals(List.of("'cumprod' is a glob over whole names and paths: '*cumprod*' takes the 2 whose name,"
                + " op or file holds it"), SelectionHints.of(whole, CUMULATIVE, IDS));
        SpecSelection named = new SpecSelection(List.of(Glob.of("cumsum-axis1")), List.of(), null, null);
        assertEquals(List.of("no spec is named 'cumsum-axis1' (did you mean 'cumsum-axis0'?)"),
                SelectionHints.of(named, CUMULATIVE, IDS));
    }

    @Test
    void aBadGlobSaysWhereItWentWrong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Glob.of("specs/[a-"));
        assertTrue(e.getMessage().contains("'specs/[a-' is not a valid glob") && e.getMessage().contains("column"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Glob.of("{a,b"));
    }
}
