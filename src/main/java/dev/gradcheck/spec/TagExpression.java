package dev.gradcheck.spec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code check --tag EXPR}: which specs to take by their {@code tags:}. A tag name is true for a spec that carries
 * it; {@code not} binds tightest, then {@code and}, then {@code or}; parentheses group:
 * {@code slow and not (cuda or known-bug)}. An expression that does not parse is a usage error that names the
 * column where it went wrong.
 *
 * <p>{@code check -k EXPR} ({@link #parseKeywords}) is the same grammar over keywords: any word without blanks or
 * parentheses, which the caller holds true as it likes (run/'s selection: a substring of the spec's name, op or
 * file, as pytest's {@code -k}).
 */
public final class TagExpression {

    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "not");

    private final Node root;
    private final String text;

    private TagExpression(Node root, String text) {
        this.root = root;
        this.text = text;
    }

    /**
     * @throws SyntaxException naming the 1-based column of the first problem
     */
    public static TagExpression parse(String text) throws SyntaxException {
        return parse(text, false);
    }

    /**
     * A keyword expression ({@code -k}): words of any characters but blanks and parentheses.
     *
     * @throws SyntaxException naming the 1-based column of the first problem
     */
    public static TagExpression parseKeywords(String text) throws SyntaxException {
        return parse(text, true);
    }

    private static TagExpression parse(String text, boolean keywords) throws SyntaxException {
        Parser p = new Parser(text, keywords);
        Node root = p.or();
        if (p.peek() != null) {
            Token t = p.peek();
            throw new SyntaxException(t.text.equals(")") ? "')' without a matching '('"
                    : "expected 'and', 'or' or the end after " + describe(p.previous) + ", got '" + t.text + "'",
                    t.column);
        }
        return new TagExpression(root, text);
    }

    /** Whether a spec with these tags is selected. */
    public boolean matches(Collection<String> tags) {
        return holds(tags::contains);
    }

    /** The expression's value when each word is as {@code word} says. */
    public boolean holds(java.util.function.Predicate<String> word) {
        return root.eval(word);
    }

    /** Every tag the expression names, in order of appearance (to warn about one no spec carries). */
    public Set<String> tags() {
        Set<String> names = new LinkedHashSet<>();
        root.collect(names);
        return names;
    }

    @Override
    public String toString() {
        return text;
    }

    /**
     * Why {@code tag} cannot be a tag, or null when it can: a word of letters, digits, '_', '-' and '.', starting
     * with a letter, digit or '_', and none of the expression's keywords.
     */
    public static String tagProblem(String tag) {
        if (!TAG.matcher(tag).matches()) {
            return "is not a tag: use letters, digits, '_', '-' and '.', starting with a letter, digit or '_'";
        }
        if (KEYWORDS.contains(tag.toLowerCase(Locale.ROOT))) {
            return "is reserved for tag expressions (and, or, not)";
        }
        return null;
    }

    /** A tag expression that does not parse; {@link #column()} is 1-based. */
    public static final class SyntaxException extends Exception {
        private final int column;

        SyntaxException(String message, int column) {
            super(message, null, false, false);
            this.column = column;
        }

        public int column() {
            return column;
        }
    }

    private sealed interface Node permits Tag, Not, And, Or {
        boolean eval(java.util.function.Predicate<String> word);

        void collect(Set<String> names);
    }

    private record Tag(String name) implements Node {
        public boolean eval(java.util.function.Predicate<String> word) {
            return word.test(name);
        }

        public void collect(Set<String> names) {
            names.add(name);
        }
    }

    private record Not(Node operand) implements Node {
        public boolean eval(java.util.function.Predicate<String> word) {
            return !operand.eval(word);
        }

        public void collect(Set<String> names) {
            operand.collect(names);
        }
    }

    private record And(Node left, Node right) implements Node {
        public boolean eval(java.util.function.Predicate<String> word) {
            return left.eval(word) && right.eval(word);
        }

        public void collect(Set<String> names) {
            left.collect(names);
            right.collect(names);
        }
    }

    private record Or(Node left, Node right) implements Node {
        public boolean eval(java.util.function.Predicate<String> word) {
            return left.eval(word) || right.eval(word);
        }

        public void collect(Set<String> names) {
            left.collect(names);
            right.collect(names);
        }
    }

    private record Token(String text, int column) {}

    private static String describe(Token t) {
        return t == null ? "the start" : "'" + t.text + "'";
    }

    /** Recursive descent over words and parentheses; one method per precedence level. */
    private static final class Parser {
        private final List<Token> tokens = new ArrayList<>();
        private final int end;
        /** What a word is called in messages: a tag, or a keyword of -k. */
        private final String noun;
        private int next;
        Token previous;

        Parser(String text, boolean keywords) throws SyntaxException {
            end = text.length() + 1;
            noun = keywords ? "keyword" : "tag";
            int i = 0;
            while (i < text.length()) {
                char c = text.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (c == '(' || c == ')') {
                    tokens.add(new Token(String.valueOf(c), i + 1));
                    i++;
                } else {
                    i = word(text, i, keywords);
                }
            }
        }

        /** The word starting at {@code start}, added as a token; returns where it ends. */
        private int word(String text, int start, boolean keywords) throws SyntaxException {
            int i = start;
            while (i < text.length() && !Character.isWhitespace(text.charAt(i)) && text.charAt(i) != '('
                    && text.charAt(i) != ')') {
                i++;
            }
            String word = text.substring(start, i);
            if (!keywords && !KEYWORDS.contains(word) && !TAG.matcher(word).matches()) {
                throw new SyntaxException("'" + word + "' is not a tag (letters, digits, '_', '-' and '.')",
                        start + 1);
            }
            tokens.add(new Token(word, start + 1));
            return i;
        }

        Token peek() {
            return next < tokens.size() ? tokens.get(next) : null;
        }

        private boolean take(String word) {
            Token t = peek();
            if (t != null && t.text.equals(word)) {
                previous = t;
                next++;
                return true;
            }
            return false;
        }

        Node or() throws SyntaxException {
            Node left = and();
            while (take("or")) {
                left = new Or(left, and());
            }
            return left;
        }

        private Node and() throws SyntaxException {
            Node left = not();
            while (take("and")) {
                left = new And(left, not());
            }
            return left;
        }

        private Node not() throws SyntaxException {
            return take("not") ? new Not(not()) : atom();
        }

        private Node atom() throws SyntaxException {
            Token t = peek();
            if (t == null) {
                throw new SyntaxException(previous == null ? "empty expression: name a " + noun
                        : "expected a " + noun + " or '(' after " + describe(previous), end);
            }
            if (take("(")) {
                Token open = previous;
                Node inner = or();
                if (!take(")")) {
                    Token at = peek();
                    throw new SyntaxException("expected ')' to close the '(' at column " + open.column
                            + (at == null ? "" : ", got '" + at.text + "'"), at == null ? end : at.column);
                }
                return inner;
            }
            if (t.text.equals(")") || KEYWORDS.contains(t.text)) {
                throw new SyntaxException("expected a " + noun + " or '(' after " + describe(previous) + ", got '" + t.text
                        + "'", t.column);
            }
            previous = t;
            next++;
            return new Tag(t.text);
        }
    }
}
