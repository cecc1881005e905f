package dev.gradcheck.cli.options;

import picocli.CommandLine.Option;

/** {@code --color WHEN} and {@code --no-color}: declared once for every command that writes a table. */
public final class ColorOption {

    @Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto", converter = ColorMode.Converter.class,
            completionCandidates = ColorMode.Names.class,
            description = "Colour the table's statuses: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}: when the"
                    + " report goes to a terminal; NO_COLOR turns it off, FORCE_COLOR on; --color wins over both).")
    public ColorMode mode = ColorMode.AUTO;

    @Option(names = "--no-color", description = "The same as --color never.")
    void noColor(boolean off) {
        mode = off ? ColorMode.NEVER : mode;
    }
}
