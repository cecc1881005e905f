package dev.gradcheck.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Hostile spec files made from the shipped specs (specs/), for {@link HostileInputFuzzTest}: a shipped document,
 * damaged as a tree (wrong types, hostile numbers and shapes, graph damage), then as text (syntax damage, tags,
 * aliases), then as a whole file (alias bombs, deep nesting, binary, many documents). Every damage is chosen by
 * jqwik from an enum and a number, so a failing file shrinks to a short recipe, printed with the failure.
 */
final class HostileSpecs {

    private HostileSpecs() {}

    /** One hostile file: how it was made, and its bytes. */
    record Hostile(String recipe, byte[] bytes) {
        @Override
        public String toString() {
            return recipe + " (" + bytes.length + " bytes)";
        }
    }

    /** One document of a shipped spec file. */
    record Base(String name, ObjectNode tree) {}

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    static final List<Base> BASES = shipped(Path.of("specs"));

    /** Hostile files: a base, up to two tree damages, up to two text damages, maybe one damage of the whole. */
    static Arbitrary<Hostile> files() {
        Arbitrary<Base> base = Arbitraries.of(BASES);
        Arbitrary<List<Tuple.Tuple2<TreeDamage, Integer>>> tree = Combinators
                .combine(Arbitraries.of(TreeDamage.class), picks()).as(Tuple::of).list().ofMaxSize(2);
        Arbitrary<List<Tuple.Tuple2<TextDamage, Integer>>> text = Combinators
                .combine(Arbitraries.of(TextDamage.class), picks()).as(Tuple::of).list().ofMaxSize(2);
        Arbitrary<Tuple.Tuple2<FileDamage, Integer>> whole = Combinators.combine(Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.just(FileDamage.NONE)), Tuple.of(4, Arbitraries.of(FileDamage.class))), picks())
                .as(Tuple::of);
        return Combinators.combine(base, tree, text, whole).as(HostileSpecs::make);
    }

    private static Arbitrary<Integer> picks() {
        return Arbitraries.integers().between(0, 1_000_000);
    }

    private static Hostile make(Base base, List<Tuple.Tuple2<TreeDamage, Integer>> tree,
                                List<Tuple.Tuple2<TextDamage, Integer>> text, Tuple.Tuple2<FileDamage, Integer> whole) {
        ObjectNode root = base.tree().deepCopy();
        List<String> recipe = new ArrayList<>(List.of(base.name()));
        for (var d : tree) {
            d.get1().apply(root, d.get2());
            recipe.add(d.get1() + "@" + d.get2());
        }
        String yaml;
        try {
            yaml = YAML.writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (var d : text) {
            yaml = d.get1().apply(yaml, d.get2());
            recipe.add(d.get1() + "@" + d.get2());
        }
        if (whole.get1() != FileDamage.NONE) {
            recipe.add(whole.get1() + "@" + whole.get2());
        }
        return new Hostile(String.join(" + ", recipe), whole.get1().apply(yaml, whole.get2()));
    }

    /** Damage to the parsed document: the file stays valid YAML, the spec does not. */
    enum TreeDamage {
        /** Any value anywhere replaced by a hostile one. */
        REPLACE_VALUE((root, pick) -> {
            List<Slot> slots = slots(root);
            if (!slots.isEmpty()) {
                slots.get(pick % slots.size()).set(hostileValue(pick / slots.size()));
            }
        }),
        DELETE_KEY((root, pick) -> {
            List<Slot> slots = slots(root).stream().filter(s -> s.parent instanceof ObjectNode).toList();
            if (!slots.isEmpty()) {
                Slot s = slots.get(pick % slots.size());
                ((ObjectNode) s.parent).remove(s.key);
            }
        }),
        ADD_KEY((root, pick) -> {
            List<String> keys = List.of("tolerence", "", " ", "<<", "~", "x".repeat(5000), "inputs ", "ΔΣ",
                    "null", "123", "op\u0000");
            root.set(keys.get(pick % keys.size()), hostileValue(pick / keys.size()));
        }),
        /** An input's shape: zero, negative, overflowing, huge, nested, fractional. */
        SHAPE((root, pick) -> {
            List<ObjectNode> inputs = inputs(root);
            if (!inputs.isEmpty()) {
                inputs.get(pick % inputs.size()).set("shape", hostileShape(pick / inputs.size()));
            }
        }),
        DTYPE((root, pick) -> {
            List<ObjectNode> inputs = inputs(root);
            List<String> dtypes = List.of("int32", "int64", "bool", "float16", "bfloat16", "float128", "FLOAT64",
                    "", "utf8");
            if (!inputs.isEmpty()) {
                inputs.get(pick % inputs.size()).put("dtype", dtypes.get((pick / inputs.size()) % dtypes.size()));
            }
        }),
        INIT((root, pick) -> {
            List<ObjectNode> inputs = inputs(root);
            if (inputs.isEmpty()) {
                return;
            }
            List<String> kinds = List.of("uniform", "normal", "constant", "range", "values", "zeros");
            ObjectNode init = NODES.objectNode();
            init.set(kinds.get(pick % kinds.size()), hostileValue(pick / kinds.size()));
            inputs.get(pick % inputs.size()).set("init", init);
        }),
        /** A number in attrs, tolerance, delta, seed, timeout, max_elements... made hostile. */
        HOSTILE_NUMBER((root, pick) -> {
            List<Slot> numbers = slots(root).stream().filter(s -> s.get().isNumber()).toList();
            if (!numbers.isEmpty()) {
                numbers.get(pick % numbers.size()).set(hostileNumber(pick / numbers.size()));
            }
        }),
        GRAPH_CYCLE((root, pick) -> {
            List<ObjectNode> nodes = graph(root);
            ObjectNode first = nodes.get(pick % nodes.size());
            String last = nodes.get(nodes.size() - 1).path("out").asText("y");
            ArrayNode in = in(first);
            if (in.isEmpty()) {
                in.add(last);
            } else {
                in.set(0, NODES.textNode(last));
            }
        }),
        GRAPH_MISSING_NAME((root, pick) -> {
            List<ObjectNode> nodes = graph(root);
            in(nodes.get(pick % nodes.size())).add("nowhere");
            in(nodes.get(pick % nodes.size())).remove(0);
        }),
        /** One input more or fewer than the op takes (add with three inputs), or none. */
        GRAPH_ARITY((root, pick) -> {
            List<ObjectNode> nodes = graph(root);
            ArrayNode in = in(nodes.get(pick % nodes.size()));
            switch ((pick / nodes.size()) % 3) {
                case 0 -> in.add(in.isEmpty() ? NODES.textNode("x") : in.get(0).deepCopy());
                case 1 -> in.removeAll();
                default -> {
                    if (in.size() > 1) {
                        in.remove(in.size() - 1);
                    } else {
                        in.add(in.isEmpty() ? NODES.textNode("x") : in.get(0).deepCopy()).add(in.get(0).deepCopy());
                    }
                }
            }
        }),
        GRAPH_DUPLICATE_OUT((root, pick) -> {
            List<ObjectNode> nodes = graph(root);
            ObjectNode node = nodes.get(pick % nodes.size());
            List<String> names = new ArrayList<>();
            nodes.forEach(n -> names.add(n.path("out").asText()));
            root.path("inputs").fieldNames().forEachRemaining(names::add);
            node.put("out", names.get((pick / nodes.size()) % names.size()));
        }),
        GRAPH_OUTPUT((root, pick) -> {
            graph(root);
            root.set("output", List.of(NODES.textNode("nowhere"), NODES.numberNode(7), NODES.arrayNode(),
                    NODES.textNode("x"), NODES.nullNode()).get(pick % 5));
        }),
        GRAPH_NODE_OP((root, pick) -> {
            List<ObjectNode> nodes = graph(root);
            List<String> ops = List.of("add", "matmul", "concat", "reshape", "gather", "conv2d", "nosuchop",
                    "lstmLayer", "while", "enter", "graph", "tanh_bp", "");
            (nodes.get(pick % nodes.size())).put("op", ops.get((pick / nodes.size()) % ops.size()));
        });

        private final java.util.function.ObjIntConsumer<ObjectNode> damage;

        TreeDamage(java.util.function.ObjIntConsumer<ObjectNode> damage) {
            this.damage = damage;
        }

        void apply(ObjectNode root, int pick) {
            damage.accept(root, pick);
        }
    }

    /** Damage to the YAML text. */
    enum TextDamage {
        TRUNCATE((text, pick) -> text.substring(0, pick % (text.length() + 1))),
        DELETE_SPAN((text, pick) -> {
            int at = pick % (text.length() + 1);
            return text.substring(0, at) + text.substring(Math.min(text.length(), at + 1 + pick % 17));
        }),
        INSERT_JUNK((text, pick) -> {
            List<String> junk = List.of(":", ": ", "- ", "{", "}", "[", "]", ",", "\t", "#", "&a ", "*a", "*",
                    "!!binary ", "!custom ", "? ", "|", ">", "%YAML 1.2\n", "---\n", "...\n", "\"", "'", "\\",
                    "\u0000", "\uFFFF", "\u2028", "\r", "\n", "<<: *a\n", "@", "`", "%", "\ud800", "\uFEFF",
                    "  ", "\n  - ", "\n- ", "!!python/object:os.system ");
            int at = pick % (text.length() + 1);
            return text.substring(0, at) + junk.get((pick / 7) % junk.size()) + text.substring(at);
        }),
        DUPLICATE_LINE((text, pick) -> {
            List<String> lines = new ArrayList<>(text.lines().toList());
            if (lines.isEmpty()) {
                return text;
            }
            int i = pick % lines.size();
            lines.add(i, lines.get(i));
            return String.join("\n", lines) + "\n";
        }),
        INDENT((text, pick) -> {
            List<String> lines = new ArrayList<>(text.lines().toList());
            if (lines.isEmpty()) {
                return text;
            }
            int i = pick % lines.size();
            String line = lines.get(i);
            lines.set(i, (pick / 3) % 2 == 0 ? " ".repeat(1 + pick % 5) + line : line.stripLeading());
            return String.join("\n", lines) + "\n";
        }),
        /** A number's text replaced by a spelling that is hostile as text: .nan, 1e999, 0x1F, 1_000... */
        NUMBER_TEXT((text, pick) -> {
            List<String> spellings = List.of(".nan", ".NaN", ".inf", "-.inf", "1e999", "-1e999", "0x1F", "0o17",
                    "1_000", "99999999999999999999999999", "-0", "+1", "1e-999", "4.9e-324", "0b101", "1:30",
                    "Infinity", "NaN", "~", "1.", ".5", "1e3", "9223372036854775808", "-9223372036854775809");
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?")
                    .matcher(text);
            List<int[]> found = new ArrayList<>();
            while (m.find()) {
                found.add(new int[] {m.start(), m.end()});
            }
            if (found.isEmpty()) {
                return text;
            }
            int[] at = found.get(pick % found.size());
            return text.substring(0, at[0]) + spellings.get((pick / 11) % spellings.size()) + text.substring(at[1]);
        }),
        /** A tag on some value: YAML's own (binary, set, omap, timestamp) or ones meant to instantiate classes. */
        TAG((text, pick) -> {
            List<String> tags = List.of("!!binary ", "!!set ", "!!omap ", "!!timestamp ", "!!float ", "!!int ",
                    "!!str ", "!!null ", "!!bool ", "!!python/object:os.system ", "!!java.io.File ",
                    "!<tag:yaml.org,2002:str> ", "!local ", "!!map ", "!!seq ");
            int colon = nthIndexOf(text, ": ", pick);
            if (colon < 0) {
                return text;
            }
            return text.substring(0, colon + 2) + tags.get((pick / 13) % tags.size()) + text.substring(colon + 2);
        }),
        /** An anchor on one value and an alias to it elsewhere. */
        ALIAS((text, pick) -> {
            int first = nthIndexOf(text, ": ", pick);
            int second = nthIndexOf(text, ": ", pick / 3 + 1);
            if (first < 0 || second < 0 || second <= first) {
                return text + "extra: *missing\n";
            }
            return text.substring(0, first + 2) + "&a " + text.substring(first + 2, second + 2) + "*a "
                    + text.substring(second + 2);
        });

        private final java.util.function.BiFunction<String, Integer, String> damage;

        TextDamage(java.util.function.BiFunction<String, Integer, String> damage) {
            this.damage = damage;
        }

        String apply(String text, int pick) {
            return damage.apply(text, pick);
        }

        static int nthIndexOf(String text, String s, int n) {
            List<Integer> at = new ArrayList<>();
            for (int i = text.indexOf(s); i >= 0; i = text.indexOf(s, i + 1)) {
                at.add(i);
            }
            return at.isEmpty() ? -1 : at.get(n % at.size());
        }
    }

    /** Damage to the whole file. */
    enum FileDamage {
        NONE((text, pick) -> utf8(text)),
        /** Billion laughs: nine levels of nine aliases each. */
        ALIAS_BOMB((text, pick) -> {
            StringBuilder b = new StringBuilder("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
            for (int i = 1; i < 10; i++) {
                b.append("a").append(i).append(": &a").append(i).append(" [");
                for (int k = 0; k < 9; k++) {
                    b.append(k > 0 ? ", " : "").append("*a").append(i - 1);
                }
                b.append("]\n");
            }
            return utf8(pick % 2 == 0 ? b + text : text + b);
        }),
        DEEP_FLOW((text, pick) -> {
            int depth = 50 + pick % 20_000;
            String open = pick % 2 == 0 ? "[" : "{a: ";
            String close = pick % 2 == 0 ? "]" : "}";
            return utf8(text + "attrs: " + open.repeat(depth) + "1" + close.repeat(depth) + "\n");
        }),
        DEEP_BLOCK((text, pick) -> {
            StringBuilder b = new StringBuilder(text).append("attrs:\n");
            int depth = 50 + pick % 2000;
            for (int i = 1; i <= depth; i++) {
                b.append(" ".repeat(i)).append("k:\n");
            }
            return utf8(b.toString());
        }),
        MANY_DOCUMENTS((text, pick) -> utf8((text + "---\n").repeat(2 + pick % 40))),
        EMPTY_DOCUMENTS((text, pick) -> utf8("---\n".repeat(pick % 5000) + (pick % 2 == 0 ? text : ""))),
        LONG_STRING((text, pick) -> utf8(text + "name: " + "n".repeat(10_000 + pick % 2_000_000) + "\n")),
        BINARY((text, pick) -> {
            java.util.Random r = new java.util.Random(pick);
            byte[] b = new byte[pick % 4096];
            r.nextBytes(b);
            return b;
        }),
        /** Bytes that are not UTF-8 (a lone continuation byte, an overlong form, a UTF-16 BOM) spliced in. */
        INVALID_UTF8((text, pick) -> {
            byte[][] bad = {{(byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xFF, (byte) 0xFE},
                {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {0}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}};
            byte[] t = utf8(text);
            byte[] b = bad[pick % bad.length];
            int at = (pick / bad.length) % (t.length + 1);
            byte[] out = new byte[t.length + b.length];
            System.arraycopy(t, 0, out, 0, at);
            System.arraycopy(b, 0, out, at, b.length);
            System.arraycopy(t, at, out, at + b.length, t.length - at);
            return out;
        }),
        BYTE_ORDER_MARK((text, pick) -> utf8((pick % 2 == 0 ? "\uFEFF" : "\uFEFF\uFEFF") + text)),
        CRLF((text, pick) -> utf8(text.replace("\n", pick % 2 == 0 ? "\r\n" : "\r"))),
        MERGE_KEY((text, pick) -> utf8("base: &b {op: tanh}\n<<: *b\n" + text)),
        COMPLEX_KEY((text, pick) -> utf8(text + "? [a, b]\n: c\n")),
        DIRECTIVES((text, pick) -> utf8("%YAML 1.1\n%TAG !e! tag:example.com,2000:\n--- !e!spec\n" + text)),
        EMPTY((text, pick) -> {
            return utf8(List.of("", "\n", "~", "null", "---", "...", "# only a comment\n", " ", "[]", "{}",
                    "42", "\"a string\"").get(pick % 12));
        });

        private final java.util.function.BiFunction<String, Integer, byte[]> damage;

        FileDamage(java.util.function.BiFunction<String, Integer, byte[]> damage) {
            this.damage = damage;
        }

        byte[] apply(String text, int pick) {
            return damage.apply(text, pick);
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Values of every type and none. */
    static JsonNode hostileValue(int pick) {
        List<JsonNode> values = new ArrayList<>(List.of(NODES.nullNode(), NODES.textNode(""), NODES.textNode("x"),
                NODES.booleanNode(true), NODES.arrayNode(), NODES.objectNode(),
                NODES.arrayNode().add(NODES.arrayNode().add(1)), NODES.objectNode().put("a", 1),
                NODES.textNode("\u0000\u2028\uFEFF"), NODES.textNode("x".repeat(100_000))));
        values.add(hostileNumber(pick));
        values.add(hostileShape(pick));
        return values.get(pick % values.size());
    }

    static JsonNode hostileNumber(int pick) {
        List<JsonNode> numbers = List.of(NODES.numberNode(0), NODES.numberNode(-1), NODES.numberNode(-0.0),
                NODES.numberNode(Double.NaN), NODES.numberNode(Double.POSITIVE_INFINITY),
                NODES.numberNode(Double.NEGATIVE_INFINITY), NODES.numberNode(1e308), NODES.numberNode(-1e308),
                NODES.numberNode(Double.MIN_VALUE), NODES.numberNode(Long.MAX_VALUE), NODES.numberNode(Long.MIN_VALUE),
                NODES.numberNode(Integer.MAX_VALUE + 1L), NODES.numberNode(BigInteger.TWO.pow(70)),
                NODES.numberNode(0.5), NODES.numberNode(1e-300), NODES.numberNode(3), NODES.numberNode(1_000_000_000));
        return numbers.get(pick % numbers.size());
    }

    static JsonNode hostileShape(int pick) {
        long[][] shapes = {{3, 0}, {0, 3}, {0}, {}, {-1}, {65536, 65536, 65536}, {1000, 1000, 1000},
            {2147483648L}, {Long.MAX_VALUE, 2}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
            {100000, 100000}, {40000, 1}, {2, 3}, {1}};
        if (pick % 17 == 15) {
            return NODES.arrayNode().add(2.5).add(3); // a fractional dimension
        }
        if (pick % 17 == 16) {
            return NODES.arrayNode().add(NODES.arrayNode().add(2)).add(3); // a nested one
        }
        ArrayNode a = NODES.arrayNode();
        for (long d : shapes[pick % shapes.length]) {
            a.add(d);
        }
        return a;
    }

    /** A place in the tree that holds a value: a mapping's key or a list's index. */
    private record Slot(JsonNode parent, String key, int index) {
        JsonNode get() {
            return key != null ? parent.get(key) : parent.get(index);
        }

        void set(JsonNode value) {
            if (key != null) {
                ((ObjectNode) parent).set(key, value);
            } else {
                ((ArrayNode) parent).set(index, value);
            }
        }
    }

    private static List<Slot> slots(JsonNode root) {
        List<Slot> slots = new ArrayList<>();
        collect(root, slots);
        return slots;
    }

    private static void collect(JsonNode node, List<Slot> slots) {
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                slots.add(new Slot(o, e.getKey(), -1));
                collect(e.getValue(), slots);
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                slots.add(new Slot(a, null, i));
                collect(a.get(i), slots);
            }
        }
    }

    private static List<ObjectNode> inputs(ObjectNode root) {
        List<ObjectNode> inputs = new ArrayList<>();
        root.path("inputs").forEach(n -> {
            if (n instanceof ObjectNode o) {
                inputs.add(o);
            }
        });
        return inputs;
    }

    /**
     * The spec's graph nodes (those still mappings); a spec without any is first turned into a one-node graph of
     * its op.
     */
    private static List<ObjectNode> graph(ObjectNode root) {
        if (root.get("graph") instanceof ArrayNode g) {
            List<ObjectNode> nodes = new ArrayList<>();
            g.forEach(n -> {
                if (n instanceof ObjectNode o) {
                    nodes.add(o);
                }
            });
            if (!nodes.isEmpty()) {
                return nodes;
            }
        }
        ObjectNode node = NODES.objectNode();
        node.set("op", root.has("op") ? root.get("op") : NODES.textNode("tanh"));
        ArrayNode in = node.putArray("in");
        root.path("inputs").fieldNames().forEachRemaining(in::add);
        node.put("out", "y");
        if (root.has("attrs")) {
            node.set("attrs", root.get("attrs"));
        }
        root.remove(List.of("op", "attrs", "output"));
        root.putArray("graph").add(node);
        root.put("output", "y");
        return List.of(node);
    }

    /** A graph node's input list, made a list if a damage made it something else. */
    private static ArrayNode in(ObjectNode node) {
        return node.get("in") instanceof ArrayNode a ? a : node.putArray("in");
    }

    /** Every document of every spec file under {@code dir}. */
    private static List<Base> shipped(Path dir) {
        List<Base> bases = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                int k = 0;
                for (JsonNode doc : YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile()).readAll()) {
                    k++;
                    if (doc instanceof ObjectNode o) {
                        bases.add(new Base(dir.relativize(file) + "#" + k, o));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (bases.size() < 100) {
            throw new IllegalStateException("expected the shipped specs under " + dir.toAbsolutePath()
                    + ", found " + bases.size() + " documents");
        }
        return List.copyOf(bases);
    }
}
