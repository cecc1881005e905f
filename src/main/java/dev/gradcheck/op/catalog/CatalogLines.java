package dev.gradcheck.op.catalog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The catalog resource as {@link OpCatalog#write} lays it out: a first line that opens the object and its
 * {@code ops} array, then one op's object per line (after the comma that separates it from the one before), the
 * last line closing the array and the object. Indexed by the name each line starts with, so that an op is parsed
 * only when a run asks for it. Any other layout is not indexed ({@link #index} returns null) and is read whole.
 */
final class CatalogLines {

    private static final byte[] NAME_FIELD = "{\"name\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSING = "]}".getBytes(StandardCharsets.US_ASCII);

    private CatalogLines() {}

    /** One op: parsed already, or its object's bytes in the text, parsed on the first {@link #entry()}. */
    static final class Line {
        private final byte[] text;
        private final int start;
        private final int end;
        private volatile OpCatalog.Entry entry;

        private Line(byte[] text, int start, int end, OpCatalog.Entry entry) {
            this.text = text;
            this.start = start;
            this.end = end;
            this.entry = entry;
        }

        static Line of(OpCatalog.Entry entry) {
            return new Line(null, 0, 0, entry);
        }

        /** Two threads asking at once may both parse it; they make equal entries. */
        OpCatalog.Entry entry() {
            OpCatalog.Entry e = entry;
            if (e == null) {
                e = parse();
                entry = e;
            }
            return e;
        }

        private OpCatalog.Entry parse() {
            try (JsonParser p = OpCatalog.parser(text, start, end - start)) {
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    throw new IOException("op catalog: an op's line does not hold an object");
                }
                return OpCatalog.readEntry(p);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read gradcheck's op catalog (" + OpCatalog.RESOURCE + ")", e);
            }
        }
    }

    /**
     * The ops of a text in the resource's layout and of the given format, by name; null for any other text (the
     * caller parses it whole, and says what is wrong with it).
     */
    static Map<String, Line> index(byte[] text, int format) {
        int limit = text.length;
        while (limit > 0 && text[limit - 1] == '\n') {
            limit--; // a final newline (an editor's) closes no line of its own
        }
        int lineEnd = indexOf(text, (byte) '\n', 0, limit);
        int opsStart = opsArrayStart(text, lineEnd < 0 ? limit : lineEnd, format);
        if (opsStart < 0) {
            return null;
        }
        if (lineEnd < 0) { // no op: the array closes on the first line
            return endsAt(text, opsStart, limit) ? new TreeMap<>() : null;
        }
        return opsStart == lineEnd ? opLines(text, lineEnd + 1, limit) : null;
    }

    /** The lines from {@code first} on, one op each, the last closing the array and the object; else null. */
    private static Map<String, Line> opLines(byte[] text, int first, int limit) {
        Map<String, Line> lines = new TreeMap<>();
        for (int start = first; start < limit; ) {
            int end = indexOf(text, (byte) '\n', start, limit);
            boolean last = end < 0;
            end = last ? limit : end;
            boolean separated = start == first || text[start] == ','; // a comma before every op but the first
            int from = start == first ? start : start + 1;
            int to = last ? end - CLOSING.length : end;
            String name = separated && (!last || endsAt(text, to, end)) ? nameAt(text, from, to) : null;
            if (name == null || lines.put(name, new Line(text, from, to, null)) != null) {
                return null; // not the layout, or a name twice: read whole, as before
            }
            if (last) {
                return lines;
            }
            start = end + 1;
        }
        return null; // the array and the object never closed
    }

    /** Where the first line's {@code ops} array opens, just after its bracket; -1 when the line is otherwise. */
    private static int opsArrayStart(byte[] text, int lineEnd, int format) {
        try (JsonParser p = OpCatalog.parser(text, 0, lineEnd)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return -1;
            }
            int found = -1;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("format")) {
                    found = value == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : -1;
                } else if (field.equals("ops")) {
                    return found == format && value == JsonToken.START_ARRAY
                            ? (int) p.currentLocation().getByteOffset() : -1;
                } else {
                    p.skipChildren();
                }
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The op's name where its object starts with it, unescaped; null otherwise. */
    private static String nameAt(byte[] text, int from, int to) {
        if (to - from < NAME_FIELD.length + 2 || text[to - 1] != '}' || !startsWith(text, from, NAME_FIELD)) {
            return null;
        }
        int nameStart = from + NAME_FIELD.length;
        int quote = indexOf(text, (byte) '"', nameStart, to);
        if (quote < 0) {
            return null;
        }
        for (int i = nameStart; i < quote; i++) {
            if (text[i] == '\\') {
                return null;
            }
        }
        return new String(text, nameStart, quote - nameStart, StandardCharsets.UTF_8);
    }

    /** Whether the text from {@code at} to {@code end} is the array's and the object's closing, and nothing else. */
    private static boolean endsAt(byte[] text, int at, int end) {
        return end - at == CLOSING.length && startsWith(text, at, CLOSING);
    }

    private static boolean startsWith(byte[] text, int at, byte[] prefix) {
        if (at < 0 || at + prefix.length > text.length) {
            return false;
        }
        for (int k = 0; k < prefix.length; k++) {
            if (text[at + k] != prefix[k]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] text, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
