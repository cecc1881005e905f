package dev.gradcheck.cli;

import dev.gradcheck.cli.options.ExitCodeHelp;
import dev.gradcheck.cli.options.VersionProvider;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;

/** The top-level command: only subcommands do work. */
@Command(name = "gradcheck", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Verifies backward passes: compares each operator's analytic gradient with a numerical one"
            + " computed from its forward pass, as described by YAML op-specs."},
        subcommandsRepeatable = false,
        footer = {"%nRun 'gradcheck COMMAND --help' for a command's options. Spec format: ${sys:gradcheck.docs:-docs}/spec-format.md,"
            + " or `gradcheck docs spec-format` (`gradcheck docs` lists every document)."})
final class GradcheckCommand implements Runnable, ExitCodeHelp {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec command;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(command.commandLine(), "missing command");
    }

    @Override
    public Map<String, String> exitCodeHelp() {
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put("0", "success");
        codes.put("2", "usage error");
        codes.put("", "each command's --help lists the codes it ends with");
        return codes;
    }
}
