package dev.gradcheck.cli.options;

import dev.gradcheck.result.Mode;
import dev.gradcheck.result.Stencil;
import dev.gradcheck.spec.Overrides;
import dev.gradcheck.spec.Suggestions;
import java.util.Arrays;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The checking settings a command line may impose on every spec it runs; each wins over the spec's own key of the
 * same name (docs/checking.md says when to use which).
 */
public final class CheckingOptions {

    /** The system property --mode's help reads each mode's phrase from: {@link #modesHelp()}. */
    static final String MODES_PROPERTY = "gradcheck.modes";

    static {
        // An annotation's text must be a constant, and the phrases are result.Mode's, so that a new mode needs no
        // line here: they reach the help as a variable picocli reads when it draws it. Set when the first command
        // with these options is made, which is before any help is drawn.
        System.setProperty(MODES_PROPERTY, modesHelp());
    }

    @Option(names = "--mode", paramLabel = "MODE", converter = ModeConverter.class,
            completionCandidates = ModeNames.class,
            description = "${COMPLETION-CANDIDATES} (described in ${sys:gradcheck.docs:-docs}/checking.md, `gradcheck docs checking`):"
                    + " ${sys:" + MODES_PROPERTY + "}. Default: each spec's mode.")
    Mode mode;

    @Option(names = "--order", paramLabel = "N", converter = Bounds.Order.class,
            description = "1, or 2 to check the backward's own gradient (and H*w for scalar outputs) too.")
    Integer order;

    @Option(names = "--stencil", paramLabel = "NAME", converter = StencilConverter.class,
            completionCandidates = StencilNames.class,
            description = "Finite-difference formula: central (error O(d^2)), five-point (O(d^4)) or richardson"
                    + " (O(d^6)); the higher orders help where third derivatives are large.")
    Stencil stencil;

    @Option(names = "--max-elements", paramLabel = "N", converter = Bounds.MaxElements.class,
            description = "Check a seeded sample of at most N elements per input (and N output rows).")
    Integer maxElements;

    @Option(names = "--nondet-tol", paramLabel = "X", converter = Bounds.NondetTol.class,
            description = "Largest difference allowed between two runs of the same backward (default 0).")
    Double nondetTol;

    @Option(names = "--resample",
            description = "At a nondifferentiable point, draw new random inputs (up to 5 times) until it is smooth.")
    Boolean resample;

    @Option(names = "--compress", negatable = true,
            description = "Full mode computes one side of each Jacobian in full and the other in a few compressed,"
                    + " randomly weighted evaluations, judging every entry (default; docs/checking.md);"
                    + " --no-compress computes both sides line by line.")
    Boolean compress;

    @Option(names = "--threads", paramLabel = "N", converter = Bounds.Threads.class,
            description = "Threads evaluating one check's rows and columns (default: the processors, at most 8,"
                    + " shared by --jobs); results are the same for any N.")
    Integer threads;

    /** The options as overrides (each value was checked as it was converted: {@link Bounds}). */
    public Overrides overrides() {
        return new Overrides(mode, order, stencil, maxElements, nondetTol, resample, compress, threads);
    }

    /** Each mode's name and what it does ({@link Mode#description()}), separated by semicolons. */
    static String modesHelp() {
        return String.join("; ", Arrays.stream(Mode.values()).map(m -> m.specName() + " " + m.description())
                .toList());
    }

    static final class ModeConverter implements CommandLine.ITypeConverter<Mode> {
        @Override
        public Mode convert(String value) {
            return Mode.fromSpecName(value).orElseThrow(() -> new CommandLine.TypeConversionException(
                    "unknown mode '" + value + "'" + Suggestions.choices(value, Mode.specNames())));
        }
    }

    /** --mode's values for help texts and completion: the names of {@link Mode}'s constants. */
    public static final class ModeNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Mode.specNames().iterator();
        }
    }

    /** --stencil's values for completion: the names a spec writes (five-point), not the constants'. */
    public static final class StencilNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Stencil.specNames().iterator();
        }
    }

    static final class StencilConverter implements CommandLine.ITypeConverter<Stencil> {
        @Override
        public Stencil convert(String value) {
            return Stencil.fromSpecName(value).orElseThrow(() -> new CommandLine.TypeConversionException(
                    "unknown stencil '" + value + "'" + Suggestions.choices(value, Stencil.specNames())));
        }
    }
}
