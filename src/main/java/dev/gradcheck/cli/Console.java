package dev.gradcheck.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command's two streams (picocli's, so tests can capture them) and whether stdout is a colour terminal.
 * Colour needs a real console, no NO_COLOR in the environment and a TERM other than "dumb".
 */
record Console(PrintWriter out, PrintWriter err, boolean colorTerminal) {

    static Console of(CommandSpec command) {
        var cl = command.commandLine();
        String term = System.getenv("TERM");
        boolean tty = System.console() != null && System.getenv("NO_COLOR") == null
                && term != null && !term.equals("dumb");
        return new Console(cl.getOut(), cl.getErr(), tty);
    }
}
