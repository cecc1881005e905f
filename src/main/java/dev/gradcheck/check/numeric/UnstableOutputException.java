package dev.gradcheck.check.numeric;

/** An output changed shape or dtype under a finite-difference perturbation: it cannot be differentiated. */
public final class UnstableOutputException extends RuntimeException {

    private final String output;

    UnstableOutputException(String output, String message) {
        super(message);
        this.output = output;
    }

    public String output() {
        return output;
    }
}
