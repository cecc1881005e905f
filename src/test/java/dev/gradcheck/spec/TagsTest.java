package dev.gradcheck.spec;

import static dev.gradcheck.spec.SpecFiles.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tags: [...]} in specs, and the {@code --tag} expressions that select by them. */
class TagsTest {

    @TempDir
    Path dir;

    private static final String TANH = "op: tanh\ninputs:\n  x: {shape: [2]}\n";

    @Test
    void tagsAreReadInOrderAndDoNotChangeTheCheck() {
        List<LoadedSpec> loaded = new SpecFiles(dir).load("t.yaml", TANH + "tags: [slow, known-bug, v1.2]\n");
        assertEquals(List.of("slow", "known-bug", "v1.2"), loaded.get(0).tags());
        assertTrue(loaded.get(0).isValid());
        assertEquals(List.of(), new SpecFiles(dir).load("u.yaml", TANH).get(0).tags());
    }

    @Test
    void badTagsAreErrorsAtTheirItem() {
        SpecFiles files = new SpecFiles(dir);
        List<SpecError> errors = files.loadErrors("t.yaml", TANH + "tags: [slow, 'has space', and, slow, {a: 1}]\n");
        assertError(errors, 4, 14, "tag 'has space' is not a tag");
        assertError(errors, 4, 27, "tag 'and' is reserved");
        assertError(errors, 4, 32, "tag 'slow' appears twice");
        assertError(errors, 4, 38, "expected a name for 'tags[4]'");
        assertError(files.loadErrors("u.yaml", TANH + "tags: slow\n"), 4, 7, "expected a list for 'tags'");
    }

    @Test
    void anInvalidSpecKeepsTheTagsThatCouldBeRead() {
        List<LoadedSpec> loaded = new SpecFiles(dir).load("t.yaml", "op: tanh\ntags: [slow]\n");
        assertFalse(loaded.get(0).isValid());
        assertEquals(List.of("slow"), loaded.get(0).tags());
    }

    @Test
    void notBindsTighterThanAndWhichBindsTighterThanOr() throws Exception {
        TagExpression e = TagExpression.parse("a or b and not c");
        assertTrue(e.matches(Set.of("a", "c")));
        assertTrue(e.matches(Set.of("b")));
        assertFalse(e.matches(Set.of("b", "c")));
        assertFalse(e.matches(Set.of()));
        TagExpression grouped = TagExpression.parse("(a or b) and not (c)");
        assertFalse(grouped.matches(Set.of("a", "c")));
        assertTrue(grouped.matches(Set.of("a")));
        assertTrue(TagExpression.parse("not not slow").matches(Set.of("slow")));
        assertTrue(TagExpression.parse("known-bug").matches(Set.of("known-bug")));
        assertEquals(Set.of("a", "b", "c"), grouped.tags());
    }

    @Test
    void aBadExpressionNamesItsColumn() {
        assertColumn("", 1, "empty expression");
        assertColumn("slow and", 9, "expected a tag or '(' after 'and'");
        assertColumn("slow and (gpu", 14, "expected ')' to close the '(' at column 10");
        assertColumn("slow gpu", 6, "expected 'and', 'or' or the end after 'slow', got 'gpu'");
        assertColumn("slow)", 5, "')' without a matching '('");
        assertColumn("and slow", 1, "expected a tag or '(' after the start, got 'and'");
        assertColumn("slow or $x", 9, "'$x' is not a tag");
        assertColumn("()", 2, "expected a tag or '(' after '(', got ')'");
    }

    private static void assertColumn(String text, int column, String message) {
        TagExpression.SyntaxException e = assertThrows(TagExpression.SyntaxException.class,
                () -> TagExpression.parse(text), text);
        assertEquals(column, e.column(), text + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(message), text + ": " + e.getMessage());
    }
}
