package dev.gradcheck.spec;

/**
 * One problem in a spec: {@code file:line:col: message}. The message is kept printable on one line
 * ({@link Printable}): it may quote whatever a hostile file holds.
 */
public record SpecError(SourcePos pos, String message) {

    public SpecError {
        message = Printable.of(message);
    }

    @Override
    public String toString() {
        return pos + ": " + message;
    }
}
