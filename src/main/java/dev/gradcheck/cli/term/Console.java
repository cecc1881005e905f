package dev.gradcheck.cli.term;

import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;

/** The command's two streams: picocli's, so tests can capture them, or a {@link Screen}'s during a live run. */
public record Console(PrintWriter out, PrintWriter err) {

    public static Console of(CommandSpec command) {
        var cl = command.commandLine();
        return new Console(cl.getOut(), cl.getErr());
    }

    public static Console of(Screen screen) {
        return new Console(screen.out(), screen.err());
    }
}
