package dev.gradcheck.spec;

import java.util.List;

/** Raised (by spec/ or op/) when a spec cannot be checked as written; carries every error found. */
public class InvalidSpecException extends Exception {
    private final List<SpecError> errors;

    public InvalidSpecException(List<SpecError> errors) {
        super(errors.isEmpty() ? "invalid spec" : errors.get(0).toString());
        this.errors = List.copyOf(errors);
    }

    public InvalidSpecException(SourcePos pos, String message) {
        this(List.of(new SpecError(pos, message)));
    }

    public List<SpecError> errors() {
        return errors;
    }
}
