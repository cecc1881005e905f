package dev.gradcheck.result;

import java.util.List;
import java.util.Optional;

/**
 * How a check compares the analytic Jacobian with the numerical one: a spec's {@code mode:}, {@code --mode}, and
 * {@code GradCheck.mode}. check/ runs each constant through its own class (one exhaustive switch, in
 * {@code check.CheckModes}); a new mode is a constant here, its class there and its arm in that switch.
 */
public enum Mode implements Named {
    /** Every Jacobian block entry by entry (or a seeded sample of it, with {@code max_elements}). */
    FULL,
    /** One projection vᵀJu per block: 2 forwards per input, 1 backward per output; a failing input rechecked in full. */
    FAST;

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
