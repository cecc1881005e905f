package dev.gradcheck.cli.options;

import dev.gradcheck.spec.CheckOptions;
import picocli.CommandLine.Option;

/** {@code --timeout SECONDS}: one check's time limit in a worker, declared and checked once for check and the shell. */
public final class TimeoutOption {

    @Option(names = "--timeout", paramLabel = "SECONDS", converter = Positive.class,
            description = "Time limit of one check in a worker (a spec's timeout: wins; default: "
                    + "300). A check over it ends as TIMEOUT and its worker is replaced. Loading the plugins has"
                    + " the same limit (default: 60): one that takes longer is a usage error.")
    Double seconds;

    /** The limit given (in range: {@link Positive} refused any other as it was converted), or null for the default. */
    public Double seconds() {
        return seconds;
    }

    /**
     * Refuses a limit outside a spec's range for {@code timeout:} as the value is converted, so that a project
     * file's {@code timeout: -5} is refused at its file:line:col as {@code timeout: x} is (the file's values go
     * through the converters).
     */
    public static final class Positive extends Bounds.Real {
        public Positive() {
            super(CheckOptions::validTimeout, "must be between " + CheckOptions.MIN_TIMEOUT + " and "
                    + (long) CheckOptions.MAX_TIMEOUT + " seconds");
        }
    }
}
