package dev.gradcheck.spec;

/** One problem in a spec: {@code file:line:col: message}. */
public record SpecError(SourcePos pos, String message) {
    @Override
    public String toString() {
        return pos + ": " + message;
    }
}
