package dev.gradcheck.check;

/** Order 2 could not run: the first-order rows stand, the check errs with this message. */
final class SecondOrderException extends RuntimeException {
    SecondOrderException(String message, Throwable cause) {
        super(message, cause);
    }
}
