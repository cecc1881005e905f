package dev.gradcheck.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@code mask:}: a list of entries in the report's notation ({@link JacobianMask}). Everything about an input side
 * is checked here (the input exists and is checked, one selector per axis, indices inside the shape, letters on
 * both sides); an output side's name and shape are known only once the op has run, and are checked then.
 */
final class MaskValidator {

    private final ValueReader reader;
    private final List<String> written;

    /** @param written every input name the spec writes, valid or not (an invalid one has its own errors already) */
    MaskValidator(ValueReader reader, List<String> written) {
        this.reader = reader;
        this.written = List.copyOf(written);
    }

    /**
     * @param inputs  the inputs that validated, by name
     * @param checked the inputs whose gradient is judged
     */
    JacobianMask read(YamlNode node, Map<String, InputSpec> inputs, List<String> checked) {
        Optional<YamlNode.Sequence> seq = reader.sequence(node, "mask");
        if (seq.isEmpty()) {
            return JacobianMask.NONE;
        }
        if (seq.get().items().isEmpty()) {
            reader.problems.add(node.pos(), "'mask' is empty; leave it out to judge every entry");
        }
        List<JacobianMask.Rule> rules = new ArrayList<>();
        List<YamlNode> items = seq.get().items();
        for (int k = 0; k < items.size(); k++) {
            YamlNode item = items.get(k);
            String path = ValueReader.element("mask", k);
            reader.string(item, path).ifPresent(text -> {
                try {
                    rules.add(rule(item.pos(), text, inputs, checked));
                } catch (IllegalArgumentException e) {
                    reader.problems.add(item.pos(), path + " '" + text + "': " + e.getMessage());
                }
            });
        }
        return new JacobianMask(rules);
    }

    private JacobianMask.Rule rule(SourcePos pos, String text, Map<String, InputSpec> inputs,
                                          List<String> checked) {
        String[] halves = text.split("/", -1);
        if (halves.length > 2) {
            throw new IllegalArgumentException("one '/' at most: output element / input element");
        }
        JacobianMask.Side first = side(halves[0]);
        JacobianMask.Side output;
        JacobianMask.Side input;
        if (halves.length == 2) {
            output = first;
            input = side(halves[1]);
            if (written.contains(output.name()) && !written.contains(input.name())) {
                throw new IllegalArgumentException("the output element comes first: out[...] / "
                        + output.name() + "[...]");
            }
        } else {
            // a single element: an input's when the spec has an input of that name, else an output's
            output = written.contains(first.name()) ? null : first;
            input = output == null ? first : null;
        }
        if (input != null && inputs.containsKey(input.name())) {
            checkInput(input, inputs.get(input.name()), checked);
        } else if (input != null && !written.contains(input.name())) {
            throw new IllegalArgumentException("no input '" + input.name() + "'"
                    + Suggestions.closest(input.name(), written).map(s -> " (did you mean '" + s + "'?)")
                    .orElse("") + "; inputs: " + String.join(", ", written));
        }
        checkLetters(output, input);
        return new JacobianMask.Rule(pos, text, output, input);
    }

    private static void checkInput(JacobianMask.Side side, InputSpec in, List<String> checked) {
        if (!checked.contains(side.name())) {
            throw new IllegalArgumentException("input '" + side.name() + "' is not checked, so none of its entries"
                    + " is judged anyway");
        }
        long[] shape = in.shape();
        if (side.axes().size() != shape.length) {
            throw new IllegalArgumentException(side.name() + " has shape " + NestedValues.format(shape) + ": give "
                    + (shape.length == 0 ? "no index (write " + side.name() + " alone)" : shape.length
                    + " ind" + (shape.length == 1 ? "ex" : "ices") + ", one per axis") + ", not " + side.axes().size());
        }
        for (int a = 0; a < shape.length; a++) {
            if (side.axes().get(a) instanceof JacobianMask.Axis.Indices ix && ix.max() >= shape[a]) {
                throw new IllegalArgumentException("index " + ix.max() + " is outside axis " + a + " of "
                        + side.name() + " (length " + shape[a] + ")");
            }
        }
    }

    /** A letter ties an output axis to an input axis: it appears once on each side. */
    private static void checkLetters(JacobianMask.Side output, JacobianMask.Side input) {
        List<Character> outLetters = letters(output);
        List<Character> inLetters = letters(input);
        for (List<Character> own : List.of(outLetters, inLetters)) {
            if (new TreeSet<>(own).size() != own.size()) {
                throw new IllegalArgumentException("a letter appears twice on one side; it ties an output axis to"
                        + " an input axis");
            }
        }
        if (!outLetters.equals(outLetters.stream().filter(inLetters::contains).toList())
                || !inLetters.equals(inLetters.stream().filter(outLetters::contains).toList())) {
            throw new IllegalArgumentException("a letter ties an output axis to an input axis, so it appears on both"
                    + " sides of '/' (write ':' for every index of one axis)");
        }
    }

    private static List<Character> letters(JacobianMask.Side side) {
        List<Character> letters = new ArrayList<>();
        if (side != null) {
            side.axes().stream().filter(a -> a instanceof JacobianMask.Axis.Tie)
                    .forEach(a -> letters.add(((JacobianMask.Axis.Tie) a).letter()));
        }
        return letters;
    }

    /** {@code name}, or {@code name[axis, ...]}. */
    static JacobianMask.Side side(String text) {
        String s = text.strip();
        int open = s.indexOf('[');
        String name = (open < 0 ? s : s.substring(0, open)).strip();
        if (name.isEmpty() || name.chars().anyMatch(c -> Character.isWhitespace(c) || "[]{},:".indexOf(c) >= 0)) {
            throw new IllegalArgumentException("expected an element such as x[0, 1] or out[2, :], got '" + s + "'");
        }
        if (open < 0) {
            return new JacobianMask.Side(name, List.of());
        }
        if (!s.endsWith("]")) {
            throw new IllegalArgumentException("'" + s + "' does not end with ']'");
        }
        List<JacobianMask.Axis> axes = new ArrayList<>();
        for (String token : axisTokens(s.substring(open + 1, s.length() - 1))) {
            axes.add(axis(token.strip()));
        }
        return new JacobianMask.Side(name, axes);
    }

    /** The axis tokens between the brackets: commas separate axes, except inside a {set}. */
    private static List<String> axisTokens(String inside) {
        List<String> tokens = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < inside.length(); i++) {
            char c = inside.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                tokens.add(inside.substring(start, i));
                start = i + 1;
            }
        }
        tokens.add(inside.substring(start));
        if (tokens.size() == 1 && tokens.get(0).isBlank()) {
            throw new IllegalArgumentException("empty brackets: give one index per axis, or the name alone for a"
                    + " scalar");
        }
        return tokens;
    }

    private static JacobianMask.Axis axis(String token) {
        if (token.equals(":")) {
            return new JacobianMask.Axis.All();
        }
        if (token.length() == 1 && token.charAt(0) >= 'a' && token.charAt(0) <= 'z') {
            return new JacobianMask.Axis.Tie(token.charAt(0));
        }
        TreeSet<Long> values = new TreeSet<>();
        String items = token;
        if (token.startsWith("{")) {
            if (!token.endsWith("}") || token.length() == 2) {
                throw new IllegalArgumentException("a set is written {0, 2, 4-5}, got '" + token + "'");
            }
            items = token.substring(1, token.length() - 1);
        }
        for (String item : items.split(",", -1)) {
            addItem(item.strip(), token, values);
        }
        return new JacobianMask.Axis.Indices(values.stream().mapToLong(Long::longValue).toArray());
    }

    private static void addItem(String item, String token, TreeSet<Long> into) {
        String[] ends = item.split("-", -1);
        try {
            if (ends.length == 1) {
                into.add(index(ends[0]));
                return;
            }
            if (ends.length == 2) {
                long from = index(ends[0]);
                long to = index(ends[1]);
                if (from > to) {
                    throw new IllegalArgumentException("range " + item + " runs backwards (write " + to + "-" + from
                            + ")");
                }
                if (to - from > 1_000_000) {
                    throw new IllegalArgumentException("range " + item + " is too long");
                }
                for (long v = from; v <= to; v++) {
                    into.add(v);
                }
                return;
            }
        } catch (NumberFormatException e) {
            // reported below with the whole token
        }
        throw new IllegalArgumentException("'" + token + "' is not an index, a range (1-3), a set ({0, 2}), ':' or"
                + " a letter");
    }

    private static long index(String digits) {
        if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
            throw new NumberFormatException(digits);
        }
        return Long.parseLong(digits);
    }
}
