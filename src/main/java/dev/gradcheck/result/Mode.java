package dev.gradcheck.result;

import java.util.List;
import java.util.Optional;

/**
 * How a check compares the analytic Jacobian with the numerical one: a spec's {@code mode:}, {@code --mode}, and
 * {@code GradCheck.mode}. check/ runs each constant through its own class (one exhaustive switch, in
 * {@code check.CheckModes}); a new mode is a constant here, its class there and its arm in that switch. What others
 * show of a mode is asked of its constant (the kind of its rows, the phrase --mode's help gives it), so they need no
 * list of modes of their own.
 */
public enum Mode implements Named {
    /** Every Jacobian block entry by entry (or a seeded sample of it, with {@code max_elements}). */
    FULL(CheckKind.JACOBIAN, "checks every Jacobian entry"),
    /** One projection vᵀJu per block: 2 forwards per input, 1 backward per output; a failing input rechecked in full. */
    FAST(CheckKind.FAST, "one projection v'Ju per block (2 forwards per input, 1 backward per output; a failing input"
            + " is rechecked in full)");

    private final CheckKind rowKind;
    private final String description;

    Mode(CheckKind rowKind, String description) {
        this.rowKind = rowKind;
        this.description = description;
    }

    /** The kind of the rows this mode adds for each (output, input) block (a live table sizes its columns by it). */
    public CheckKind rowKind() {
        return rowKind;
    }

    /** What the mode does, in one phrase after its name: {@code --mode}'s help lists the modes so. */
    public String description() {
        return description;
    }

    @Override
    public String specName() {
        return Named.of(this);
    }

    public static Optional<Mode> fromSpecName(String text) {
        return Named.parse(Mode.class, text);
    }

    public static List<String> specNames() {
        return Named.names(Mode.class);
    }
}
