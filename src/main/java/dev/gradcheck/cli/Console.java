package dev.gradcheck.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;

/** The command's two streams: picocli's, so tests can capture them, or a {@link Screen}'s during a live run. */
record Console(PrintWriter out, PrintWriter err) {

    static Console of(CommandSpec command) {
        var cl = command.commandLine();
        return new Console(cl.getOut(), cl.getErr());
    }

    static Console of(Screen screen) {
        return new Console(screen.out(), screen.err());
    }
}
