package dev.gradcheck.op.plugin;

import java.util.List;

/** Plugins could not be loaded as given: a path that does not exist, a broken provider, or a name clash. */
public final class PluginException extends Exception {

    private final List<String> problems;

    public PluginException(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per problem. */
    public List<String> problems() {
        return problems;
    }
}
