package dev.gradcheck.spec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shell's editable spec documents: edits, their text, and that the text reads back as the same spec. */
class SpecDocumentTest {

    @TempDir
    Path dir;

    /**
     * Every document the project ships, written out by the shell's emitter, reads back to the same tree, and to a
     * spec that agrees with the file's on everything a check uses: an edited spec is the spec the user sees.
     */
    @Test
    void everyShippedSpecWrittenOutReadsBackAsItself() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(Path.of("specs"))) {
            files = walk.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        int documents = 0;
        for (Path file : files) {
            for (SpecDocument doc : SpecDocument.read(file)) {
                JsonNode tree = doc.get("op") == null && doc.get("graph") == null ? null : treeOf(doc);
                if (tree == null) {
                    continue;
                }
                String text = YamlText.of((com.fasterxml.jackson.databind.node.ObjectNode) tree);
                List<YamlTreeReader.Document> back = YamlTreeReader.read("back", text).documents();
                assertEquals(1, back.size(), text);
                assertEquals(tree, SpecDocument.json(back.get(0).root()), () -> file + " " + doc.name() + ":\n" + text);

                // an edit that changes nothing: the same spec, read from the emitted text under the edited label
                SpecDocument same = doc.set("seed", String.valueOf(seed(doc)));
                assertEquals(doc.spec().isValid(), same.spec().isValid(), () -> doc.name() + ": " + same.spec().errors());
                if (doc.spec().isValid()) {
                    assertSameCheck(doc.spec().spec(), same.spec().spec());
                }
                documents++;
            }
        }
        assertTrue(documents > 250, "documents checked: " + documents);
    }

    private static JsonNode treeOf(SpecDocument doc) {
        return SpecDocument.json(YamlTreeReader.read("x", doc.text()).documents().get(0).root());
    }

    private static long seed(SpecDocument doc) {
        return doc.spec().isValid() ? doc.spec().spec().seed() : 7;
    }

    private static void assertSameCheck(OpSpec a, OpSpec b) {
        assertEquals(a.name(), b.name());
        assertEquals(a.op().value(), b.op().value());
        assertEquals(a.attrs().keySet(), b.attrs().keySet());
        a.attrs().forEach((k, v) -> assertEquals(v.value(), b.attrs().get(k).value(), a.name() + " attr " + k));
        assertEquals(a.inputs().size(), b.inputs().size());
        for (int i = 0; i < a.inputs().size(); i++) {
            InputSpec x = a.inputs().get(i);
            InputSpec y = b.inputs().get(i);
            assertEquals(x.name(), y.name());
            assertEquals(Arrays.toString(x.shape()), Arrays.toString(y.shape()));
            assertEquals(x.dtype(), y.dtype());
            assertEquals(x.init().getClass(), y.init().getClass(), a.name());
            assertArrayEquals(InputValues.generate(x, a.seed()), InputValues.generate(y, b.seed()), a.name());
        }
        assertEquals(a.outputs().stream().map(Located::value).toList(), b.outputs().stream().map(Located::value).toList());
        assertEquals(a.check(), b.check());
        assertEquals(a.noGrad(), b.noGrad());
        assertEquals(a.delta(), b.delta());
        assertEquals(a.tolerance() == null ? null : a.tolerance().describe(),
                b.tolerance() == null ? null : b.tolerance().describe());
        assertEquals(a.mode(), b.mode());
        assertEquals(a.order(), b.order());
        assertEquals(a.options(), b.options());
        assertEquals(a.backends(), b.backends());
        assertEquals(a.seed(), b.seed());
        assertEquals(a.expect(), b.expect());
        assertEquals(a.timeoutSeconds(), b.timeoutSeconds());
        assertEquals(a.graph() == null, b.graph() == null);
        if (a.graph() != null) {
            assertEquals(a.graph().nodes().size(), b.graph().nodes().size());
            for (int i = 0; i < a.graph().nodes().size(); i++) {
                assertEquals(a.graph().nodes().get(i).op().value(), b.graph().nodes().get(i).op().value());
                assertEquals(a.graph().nodes().get(i).out().value(), b.graph().nodes().get(i).out().value());
            }
        }
    }

    @Test
    void setChangesTheSpecAndItsTextNotTheFile() throws IOException {
        Path file = write("t.yaml", "# a comment\nname: t\nop: tanh\ninputs:\n  x: {shape: [2, 3]}\n");
        SpecDocument doc = SpecDocument.read(file).get(0);
        assertFalse(doc.edited());
        assertNull(doc.textForWorker(), "an unedited document is read from its file");
        assertTrue(doc.text().startsWith("# a comment"), doc.text()); // the file's own text while unedited

        SpecDocument edited = doc.set("delta", "1e-4").set("tolerance", "{atol: 1e-5, rtol: 1e-3}");
        assertEquals(1e-4, edited.spec().spec().delta());
        assertEquals("atol=1.0E-5, rtol=0.001", edited.spec().spec().tolerance().describe());
        assertEquals(file + " (edited)", edited.spec().pos().file(), "positions name the edited text");
        assertEquals(List.of("delta: 1.0E-4", "tolerance: {atol: 1.0E-5, rtol: 0.001}"), edited.edits());
        assertTrue(edited.textForWorker().contains("delta: 1.0E-4"), edited.text());
        assertTrue(Files.readString(file).startsWith("# a comment\nname: t\n"), "the file is left alone");
        assertFalse(edited.reset().edited());
        assertNull(edited.reset().spec().spec().delta());
    }

    @Test
    void dottedPathsReachIntoMappingsAndListsCreatingWhatIsMissing() {
        SpecDocument doc = SpecDocument.read(write("s.yaml", "op: softmax\ninputs: {x: {shape: [2, 3]}}\n")).get(0);
        SpecDocument edited = doc.set("attrs.dimension", "0").set("inputs.x.init", "{values: [[1, 2, 3], [4, 5, 6]]}")
                .set("inputs.x.shape.1", "3");
        assertTrue(edited.spec().isValid(), () -> edited.spec().errors().toString());
        assertEquals(0L, edited.spec().spec().attrs().get("dimension").value());
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6},
                InputValues.generate(edited.spec().spec().input("x"), edited.spec().spec().seed()));
        assertTrue(edited.unset("attrs.dimension").spec().spec().attrs().isEmpty());
    }

    @Test
    void anEditThatBreaksTheSpecIsKeptAndSaysWhatIsWrongInTheEditedText() {
        SpecDocument doc = SpecDocument.read(write("d.yaml", "op: tanh\ninputs: {x: {shape: [2]}}\n")).get(0);
        SpecDocument broken = doc.set("delta", "-1");
        assertFalse(broken.spec().isValid());
        SpecError error = broken.spec().errors().get(0);
        assertTrue(error.toString().startsWith(dir.resolve("d.yaml") + " (edited):"), error.toString());
        assertTrue(error.message().contains("delta"), error.message());
        assertTrue(broken.set("delta", "1e-3").spec().isValid(), "a later edit mends it");
    }

    @Test
    void badPathsAndValuesAreOneLineErrors() {
        SpecDocument doc = SpecDocument.read(write("b.yaml", "op: tanh\ninputs: {x: {shape: [2]}}\n")).get(0);
        IllegalArgumentException typo = assertThrows(IllegalArgumentException.class, () -> doc.set("dleta", "1"));
        assertEquals("unknown spec key 'dleta' (did you mean 'delta'?)", typo.getMessage());
        assertThrows(IllegalArgumentException.class, () -> doc.set("delta", "[1, 2"));
        assertThrows(IllegalArgumentException.class, () -> doc.set("op.x", "1"), "op holds a string, not keys");
        assertThrows(IllegalArgumentException.class, () -> doc.set("inputs.x.shape.5", "1"), "past the list's end");
        assertThrows(IllegalArgumentException.class, () -> doc.unset("delta"), "nothing to unset");
        assertThrows(IllegalArgumentException.class, () -> doc.set("delta.", "1"));
    }

    @Test
    void anUnnamedDocumentKeepsItsNameWhenEdited() {
        List<SpecDocument> docs = SpecDocument.read(write("multi.yaml",
                "op: tanh\ninputs: {x: {shape: [2]}}\n---\nop: sigmoid\ninputs: {x: {shape: [3]}}\n"));
        assertEquals(List.of("multi#1", "multi#2"), docs.stream().map(SpecDocument::name).toList());
        SpecDocument second = docs.get(1).set("delta", "1e-5");
        assertEquals("multi#2", second.spec().name());
        assertEquals("sigmoid", second.spec().spec().op().value());
        assertTrue(docs.get(1).text().startsWith("op: sigmoid"), docs.get(1).text()); // its own lines of the file
    }

    @Test
    void anUnreadableFileIsOneInvalidDocumentThatCannotBeEdited() {
        List<SpecDocument> docs = SpecDocument.read(dir.resolve("missing.yaml"));
        assertEquals(1, docs.size());
        assertFalse(docs.get(0).spec().isValid());
        assertThrows(IllegalArgumentException.class, () -> docs.get(0).set("delta", "1"));
    }

    private Path write(String name, String text) {
        try {
            return Files.writeString(dir.resolve(name), text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
