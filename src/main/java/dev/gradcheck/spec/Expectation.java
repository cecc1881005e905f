package dev.gradcheck.spec;

import dev.gradcheck.result.CheckKind;
import java.util.Arrays;
import java.util.List;

/**
 * What the spec's author expects; a non-pass expectation must carry a reason.
 *
 * @param failing for {@code expect: {fail: [...]}}, the kinds of report row expected to fail (e.g.
 *                {@code zero-grad}); a failing row of any other kind is then an unexpected failure. Empty: any.
 */
public record Expectation(Kind kind, String reason, List<String> failing) {

    /**
     * The kinds of report row a spec may name in {@code expect: {fail: [...]}}, as reports print them: every
     * {@link CheckKind}, so a new kind of row can be expected to fail without a second list to update.
     */
    public static final List<String> ROW_KINDS = Arrays.stream(CheckKind.values()).map(CheckKind::reportName)
            .toList();

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
