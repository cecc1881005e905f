package dev.gradcheck.cli.options;

import picocli.CommandLine.Option;

/** {@code --color WHEN} and {@code --no-color}: declared once for every command that writes a table. */
public final class ColorOption {

    // No picocli defaultValue: picocli applies an option's default after parsing when the option was not given,
    // which overwrote what --no-color had set. The field's initial value is the default instead.
    @Option(names = "--color", paramLabel = "WHEN", converter = ColorMode.Converter.class,
            completionCandidates = ColorMode.Names.class,
            description = "Colour the table's statuses: ${COMPLETION-CANDIDATES} (default: auto: when the"
                    + " report goes to a terminal; NO_COLOR turns it off, FORCE_COLOR on; --color wins over both).")
    public ColorMode mode = ColorMode.AUTO;

    @Option(names = "--no-color", description = "The same as --color never.")
    void noColor(boolean off) {
        mode = off ? ColorMode.NEVER : mode;
    }
}
