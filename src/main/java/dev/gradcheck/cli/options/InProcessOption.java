package dev.gradcheck.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code --in-process}: run in the front end's own JVM instead of worker JVMs, declared once for every command that
 * runs ops (check, validate, explain, shell).
 */
public final class InProcessOption {

    @Option(names = "--in-process",
            description = "Run in this JVM instead of worker JVMs: no crash isolation (an op that crashes the JVM"
                    + " ends the whole command), no time limits, cpu only; for debugging gradcheck or an operator"
                    + " under a debugger.")
    boolean inProcess;

    /** Whether ops run in this JVM. */
    public boolean enabled() {
        return inProcess;
    }
}
