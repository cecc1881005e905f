package dev.gradcheck.op;

import dev.gradcheck.api.Operator;

/**
 * A plugin operator and where it was loaded from (a jar or directory path), so that errors and {@code list-ops}
 * can name its source.
 */
public record PluginOperator(Operator operator, String source) {

    public String name() {
        return operator.name();
    }

    /** {@code plugin op 'linear' (from /path/linear-op.jar)}: how every error about it starts. */
    public String describe() {
        return "plugin op '" + name() + "' (from " + source + ")";
    }
}
