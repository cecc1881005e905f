package dev.gradcheck.spec;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Turns YAML text into located trees, one per document, with Jackson's streaming parser (which yields the
 * documents of a {@code ---} stream as consecutive root values). Stops at the first syntax error and keeps the
 * documents read before it.
 */
final class YamlTreeReader {

    /** Deeper than any sensible spec; guards the recursive descent against a stack overflow. */
    private static final int MAX_DEPTH = 100;

    private static final YAMLFactory FACTORY = new YAMLFactory();

    /** One document; {@code errors} are structural problems found while reading (repeated keys, aliases). */
    record Document(YamlNode root, List<SpecError> errors) {
        /** An empty document ({@code ---} with nothing after it, or a bare null) is not a spec. */
        boolean isEmpty() {
            return root instanceof YamlNode.Scalar s && s.kind() == YamlNode.Scalar.Kind.NULL;
        }
    }

    /**
     * @param documents      documents read completely, in order
     * @param syntaxError    the error that stopped reading, or null
     * @param failedDocStart where the document holding the syntax error starts, or null if unknown
     */
    record Result(List<Document> documents, SpecError syntaxError, SourcePos failedDocStart) {}

    private final String file;
    private final JsonParser parser;
    private List<SpecError> docErrors = new ArrayList<>();

    private YamlTreeReader(String file, JsonParser parser) {
        this.file = file;
        this.parser = parser;
    }

    static Result read(String file, String text) {
        List<Document> documents = new ArrayList<>();
        SourcePos docStart = null;
        try (JsonParser parser = FACTORY.createParser(text)) {
            YamlTreeReader reader = new YamlTreeReader(file, parser);
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                docStart = reader.tokenPos();
                YamlNode root = reader.readValue(token, 0);
                documents.add(new Document(root, reader.docErrors));
                reader.docErrors = new ArrayList<>();
                docStart = null;
            }
            return new Result(documents, null, null);
        } catch (JacksonException | YAMLException e) {
            return new Result(documents, syntaxError(file, e), docStart);
        } catch (IOException e) {
            // Reading from a String cannot really fail; keep the promise of never throwing anyway.
            return new Result(documents, new SpecError(SourcePos.ofFile(file), "cannot read: " + e.getMessage()),
                    docStart);
        } catch (ReadAbort e) {
            return new Result(documents, e.error, docStart);
        }
    }

    private YamlNode readValue(JsonToken token, int depth) throws IOException {
        SourcePos pos = tokenPos();
        if (depth > MAX_DEPTH) {
            throw new ReadAbort(new SpecError(pos, "nesting deeper than " + MAX_DEPTH + " levels"));
        }
        return switch (token) {
            case START_OBJECT -> readMapping(pos, depth);
            case START_ARRAY -> readSequence(pos, depth);
            default -> readScalar(token, pos);
        };
    }

    private YamlNode.Mapping readMapping(SourcePos pos, int depth) throws IOException {
        List<YamlNode.Entry> entries = new ArrayList<>();
        Map<String, SourcePos> seen = new HashMap<>();
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            SourcePos keyPos = tokenPos();
            YamlNode value = readValue(parser.nextToken(), depth + 1);
            SourcePos first = seen.putIfAbsent(key, keyPos);
            if (first != null) {
                docErrors.add(new SpecError(keyPos, "duplicate key '" + key + "' (first at line " + first.line() + ")"));
            } else {
                entries.add(new YamlNode.Entry(key, keyPos, value));
            }
        }
        expectEnd(token, JsonToken.END_OBJECT);
        return new YamlNode.Mapping(pos, List.copyOf(entries));
    }

    private YamlNode.Sequence readSequence(SourcePos pos, int depth) throws IOException {
        List<YamlNode> items = new ArrayList<>();
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY && token != null) {
            items.add(readValue(token, depth + 1));
        }
        expectEnd(token, JsonToken.END_ARRAY);
        return new YamlNode.Sequence(pos, List.copyOf(items));
    }

    private void expectEnd(JsonToken actual, JsonToken expected) {
        if (actual != expected) {
            // Jackson reports truncated input itself; this only guards against a token we did not foresee.
            throw new ReadAbort(new SpecError(tokenPos(), "unexpected YAML token " + actual));
        }
    }

    private YamlNode.Scalar readScalar(JsonToken token, SourcePos pos) throws IOException {
        String text = parser.getText();
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            docErrors.add(new SpecError(pos, "YAML aliases (*" + text + ") are not supported; write the value out"));
            return new YamlNode.Scalar(pos, YamlNode.Scalar.Kind.ALIAS, null, text);
        }
        return switch (token) {
            case VALUE_STRING -> string(pos, text);
            case VALUE_NUMBER_INT -> integer(pos, text);
            case VALUE_NUMBER_FLOAT -> floating(pos, text);
            case VALUE_TRUE -> new YamlNode.Scalar(pos, YamlNode.Scalar.Kind.BOOLEAN, Boolean.TRUE, text);
            case VALUE_FALSE -> new YamlNode.Scalar(pos, YamlNode.Scalar.Kind.BOOLEAN, Boolean.FALSE, text);
            case VALUE_NULL -> new YamlNode.Scalar(pos, YamlNode.Scalar.Kind.NULL, null, text == null ? "" : text);
            default -> string(pos, text);
        };
    }

    private static YamlNode.Scalar string(SourcePos pos, String text) {
        return new YamlNode.Scalar(pos, YamlNode.Scalar.Kind.STRING, text, text);
    }

    private YamlNode.Scalar integer(SourcePos pos, String text) {
        try {
            BigInteger value = parser.getBigIntegerValue();
            return new YamlNode.Scalar(pos, YamlNode.Scalar.Kind.INTEGER, value, text);
        } catch (IOException | NumberFormatException e) {
            // A spelling Jackson's number decoder rejects; let validation call it what it is, a string.
            return string(pos, text);
        }
    }

    private YamlNode.Scalar floating(SourcePos pos, String text) {
        Double value;
        try {
            value = parser.getDoubleValue();
        } catch (IOException | NumberFormatException e) {
            // Jackson 2.17 fails on YAML's .inf / .nan spellings; decode those here.
            value = specialFloat(text);
        }
        return value == null ? string(pos, text) : new YamlNode.Scalar(pos, YamlNode.Scalar.Kind.FLOAT, value, text);
    }

    private static Double specialFloat(String text) {
        String t = text.toLowerCase(java.util.Locale.ROOT);
        return switch (t) {
            case ".inf", "+.inf" -> Double.POSITIVE_INFINITY;
            case "-.inf" -> Double.NEGATIVE_INFINITY;
            case ".nan" -> Double.NaN;
            default -> null;
        };
    }

    private SourcePos tokenPos() {
        JsonLocation loc = parser.currentTokenLocation();
        return new SourcePos(file, Math.max(1, loc.getLineNr()), Math.max(1, loc.getColumnNr()));
    }

    /**
     * SnakeYAML's problem mark is where the scanner actually gave up; Jackson's own location is sometimes the end
     * of the last good token instead, so prefer the mark.
     */
    private static SpecError syntaxError(String file, Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
                Mark mark = marked.getProblemMark();
                String message = "YAML syntax error: " + marked.getProblem();
                Mark context = marked.getContextMark();
                if (marked.getContext() != null && context != null) {
                    message += " (" + marked.getContext() + " at line " + (context.getLine() + 1)
                            + ", column " + (context.getColumn() + 1) + ")";
                }
                return new SpecError(new SourcePos(file, mark.getLine() + 1, mark.getColumn() + 1), message);
            }
        }
        SourcePos pos = SourcePos.ofFile(file);
        String message = e.getMessage();
        if (e instanceof JacksonException je) {
            message = je.getOriginalMessage();
            JsonLocation loc = je.getLocation();
            if (loc != null && loc.getLineNr() > 0) {
                pos = new SourcePos(file, loc.getLineNr(), Math.max(1, loc.getColumnNr()));
            }
        }
        if (message != null && message.startsWith("Expected a field name")) {
            message = "mapping keys must be plain scalars (complex keys are not supported)";
        }
        return new SpecError(pos, "YAML syntax error: " + message);
    }

    /** Unwinds the recursive descent with an error of our own (too deep, unforeseen token). */
    private static final class ReadAbort extends RuntimeException {
        final SpecError error;

        ReadAbort(SpecError error) {
            super(error.toString(), null, false, false);
            this.error = error;
        }
    }
}
