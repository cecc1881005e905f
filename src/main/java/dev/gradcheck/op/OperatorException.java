package dev.gradcheck.op;

/**
 * A plugin operator misbehaved: its code threw, or it returned something that breaks its own contract (a missing
 * output, a gradient of the wrong shape). The check ends as an operator ERROR with this message, never as a crash.
 */
public final class OperatorException extends RuntimeException {

    public OperatorException(String message) {
        super(message);
    }

    public OperatorException(String message, Throwable cause) {
        super(message, cause);
    }
}
