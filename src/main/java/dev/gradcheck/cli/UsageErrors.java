package dev.gradcheck.cli;

import dev.gradcheck.cli.options.ExitCode;
import java.io.PrintWriter;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * A usage error prints what is wrong, close matches for a mistyped option or command, and where the help is, not
 * the whole ~60-line usage, which pushes the one line that matters off the screen.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("gradcheck: " + e.getMessage());
        UnmatchedArgumentException.printSuggestions(e, err);
        if (cmd.getParent() == null && cmd.getParseResult() != null && !cmd.getParseResult().hasSubcommand()) {
            err.println("Commands: " + String.join(", ", cmd.getSubcommands().keySet()));
        }
        err.println("See '" + cmd.getCommandSpec().qualifiedName() + " --help'.");
        err.flush();
        return ExitCode.USAGE.code();
    }
}
