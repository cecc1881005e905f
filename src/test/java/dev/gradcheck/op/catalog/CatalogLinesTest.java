package dev.gradcheck.op.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The catalog is read op by op, as a run asks for them, where its text has the layout the build writes; any other
 * text is read whole, with the same entries.
 */
class CatalogLinesTest {

    private static final OpCatalog SMALL = OpCatalogTest.SMALL;

    private static String written(OpCatalog catalog) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        catalog.write(bytes, "test key");
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static OpCatalog read(String text) throws IOException {
        return OpCatalog.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static Map<String, CatalogLines.Line> index(String text) {
        return CatalogLines.index(text.getBytes(StandardCharsets.UTF_8), OpCatalog.FORMAT);
    }

    @Test
    void theBuildsCatalogIsIndexedAndReadsAsWhenReadWhole() throws IOException {
        byte[] text;
        try (InputStream in = OpCatalog.class.getResourceAsStream(OpCatalog.RESOURCE)) {
            assertNotNull(in);
            text = in.readAllBytes();
        }
        Map<String, CatalogLines.Line> lines = CatalogLines.index(text, OpCatalog.FORMAT);
        assertNotNull(lines, "the build's layout is indexed");
        OpCatalog whole = OpCatalog.readWhole(text);
        assertEquals(whole.entries().size(), lines.size());
        assertEquals(whole.entries(), OpCatalog.read(new ByteArrayInputStream(text)).entries());
    }

    @Test
    void aWrittenCatalogIsIndexedWithAFinalNewlineOrNone() throws IOException {
        for (String text : List.of(written(SMALL), written(SMALL) + "\n")) {
            assertEquals(Set.of("MaxPool", "noop", "softmax"), index(text).keySet());
            assertEquals(SMALL.entries(), read(text).entries());
        }
        OpCatalog empty = new OpCatalog(List.of());
        assertNotNull(index(written(empty)));
        assertEquals(List.of(), read(written(empty)).entries());
    }

    @Test
    void anotherLayoutIsReadWhole() throws IOException {
        String oneLine = written(SMALL).replace("\n", "");
        String crlf = written(SMALL).replace("\n", "\r\n");
        String reordered = written(SMALL).replace("{\"name\":\"noop\",\"class\"", "{\"class\"")
                .replace("\"class\":\"org.example.NoOp\",", "\"class\":\"org.example.NoOp\",\"name\":\"noop\",");
        String unclosed = written(SMALL).substring(0, written(SMALL).length() - 2);
        for (String text : List.of(oneLine, crlf, reordered)) {
            assertNull(index(text), text);
            assertEquals(SMALL.entries(), read(text).entries(), text);
        }
        assertNull(index(unclosed));
        assertThrows(IOException.class, () -> read(unclosed));
    }

    @Test
    void aDamagedOpFailsWhenItIsAskedForAndNoOtherDoes() throws IOException {
        String text = written(SMALL).replace("\"name\":\"softmax\",\"class\":\"org.example.SoftMax\",\"bp_kernel\":true",
                "\"name\":\"softmax\",\"class\":\"org.example.SoftMax\",\"bp_kernel\":tru");
        assertTrue(text.contains("\"bp_kernel\":tru,"), "the damage is in place");
        OpCatalog catalog = read(text);
        assertEquals("org.example.NoOp", catalog.find("noop").orElseThrow().javaClass());
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> catalog.find("softmax"));
        assertTrue(e.getMessage().contains(OpCatalog.RESOURCE), e.getMessage());
    }
}
