package dev.gradcheck.spec;

/** What the spec's author expects; a non-pass expectation must carry a reason. */
public record Expectation(Kind kind, String reason) {

    public enum Kind {
        PASS, FAIL, ERROR;

        public String specName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public static final Expectation PASS = new Expectation(Kind.PASS, null);
}
