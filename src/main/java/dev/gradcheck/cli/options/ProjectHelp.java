package dev.gradcheck.cli.options;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/**
 * The line --help ends with in every command that reads the project file: where gradcheck.yaml was found (or
 * that none was, and where it was looked for), as of this invocation's --config and working directory.
 */
public final class ProjectHelp {

    private static final String SECTION = "projectFile";

    private ProjectHelp() {}

    public static void add(CommandLine command, Workspace workspace) {
        OptionSpec config = command.getCommandSpec().findOption("--config");
        if (config == null) {
            return;
        }
        command.getHelpSectionMap().put(SECTION, help -> {
            Path given = config.getValue();
            return System.lineSeparator() + wrap(ProjectOptions.describe(given, workspace), help.commandSpec().usageMessage().width())
                    + System.lineSeparator();
        });
        List<String> keys = new ArrayList<>(command.getHelpSectionKeys());
        keys.add(keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER_HEADING), SECTION);
        command.setHelpSectionKeys(keys);
    }

    /** Words to lines of at most {@code width} characters (a path longer than that gets its own line). */
    static String wrap(String text, int width) {
        StringBuilder out = new StringBuilder();
        int lineLength = 0;
        for (String word : text.split(" ")) {
            if (lineLength > 0 && lineLength + 1 + word.length() > width) {
                out.append(System.lineSeparator());
                lineLength = 0;
            }
            out.append(lineLength == 0 ? "" : " ").append(word);
            lineLength += (lineLength == 0 ? 0 : 1) + word.length();
        }
        return out.toString();
    }
}
