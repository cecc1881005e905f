package dev.gradcheck.check;

/** An output changed shape or dtype under a finite-difference perturbation: it cannot be differentiated. */
final class UnstableOutputException extends RuntimeException {

    private final String output;

    UnstableOutputException(String output, String message) {
        super(message);
        this.output = output;
    }

    String output() {
        return output;
    }
}
