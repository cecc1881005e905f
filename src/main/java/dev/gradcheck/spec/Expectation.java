package dev.gradcheck.spec;

import java.util.List;

/**
 * What the spec's author expects; a non-pass expectation must carry a reason.
 *
 * @param failing for {@code expect: {fail: [...]}}, the kinds of report row expected to fail (e.g.
 *                {@code zero-grad}); a failing row of any other kind is then an unexpected failure. Empty: any.
 */
public record Expectation(Kind kind, String reason, List<String> failing) {

    /** The kinds of report row a spec may name in {@code expect: {fail: [...]}}, as reports print them. */
    public static final List<String> ROW_KINDS = List.of("jacobian", "fast", "jvp", "hvp", "zero-grad",
            "input-mutation", "output-stability", "determinism");

    public Expectation(Kind kind, String reason) {
        this(kind, reason, List.of());
    }

    public enum Kind {
        PASS, FAIL, ERROR;

        public String specName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public static final Expectation PASS = new Expectation(Kind.PASS, null);
}
