package dev.gradcheck.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The bash (and zsh) completion script: picocli's, generated from the command model, with what its generator
 * leaves out added. picocli lists a negatable option ({@code --compress}) without its negative
 * ({@code --no-compress}), and an option whose values are not a fixed set completes nothing, where spec names
 * are known: {@code --only}, {@code --skip} and {@code --name} (of check, explain, shell) complete to the names in
 * the spec paths on the line, or the project file's, as gradcheck's own {@code check --collect-only} lists them.
 * Op names after {@code list-ops} and {@code new} come from picocli itself (their completion candidates).
 */
final class CompletionScript {

    /** The options whose values are spec names, and the commands where they are. */
    private static final List<String> SPEC_NAME_OPTIONS = List.of("--only", "--skip", "--name");
    private static final List<String> SPEC_NAME_COMMANDS = List.of("check", "explain", "shell");

    /** What picocli writes for an option it has nothing to offer for. */
    private static final String NOTHING = "      return\n      ;;\n";

    /** Spec names: the first column of check --collect-only's table, whose rows end with file:line:col. */
    private static final String SPEC_NAMES_FUNCTION = """

            # Spec names for --only, --skip and --name: those in the spec paths on the line (the project file's
            # paths: when there are none), as `gradcheck check --collect-only` lists them (no spec is checked).
            function _gradcheck_spec_names() {
              local paths=() w
              for w in "${COMP_WORDS[@]:2}"; do
                [[ $w != -* && -e $w ]] && paths+=("$w")
              done
              COLUMNS=0 "${COMP_WORDS[0]}" check --collect-only "${paths[@]}" 2>/dev/null \\
                | awk 'NR > 1 && $NF ~ /:[0-9]+:[0-9]+$/ { print $1 }'
            }
            """;

    private CompletionScript() {}

    static String bash(CommandLine root) {
        String script = AutoComplete.bash(root.getCommandName(), root);
        StringBuilder out = new StringBuilder();
        for (String part : script.split("(?=\nfunction _picocli_)")) {
            out.append(completeSpecNames(withNegatives(part, root)));
        }
        int register = out.lastIndexOf("\n# Define a completion specification");
        out.insert(register < 0 ? out.length() : register, SPEC_NAMES_FUNCTION);
        return out.toString();
    }

    /** The function's flag list with each negatable option's negative beside it. */
    private static String withNegatives(String function, CommandLine root) {
        String result = function;
        for (CommandLine command : commands(root)) {
            if (!function.startsWith("\nfunction " + functionName(root, command) + "()")) {
                continue;
            }
            for (OptionSpec o : command.getCommandSpec().options()) {
                if (!o.negatable()) {
                    continue;
                }
                for (String name : o.names()) {
                    String negative = command.getNegatableOptionTransformer().makeNegative(name,
                            command.getCommandSpec());
                    if (negative != null && !negative.equals(name)) {
                        result = result.replace("'" + name + "' ", "'" + name + "' '" + negative + "' ");
                    }
                }
            }
        }
        return result;
    }

    private static String completeSpecNames(String function) {
        Matcher m = Pattern.compile("\nfunction _picocli_\\w+?_(\\w+)\\(\\)").matcher(function);
        if (!m.lookingAt() || !SPEC_NAME_COMMANDS.contains(m.group(1))) {
            return function;
        }
        String result = function;
        for (String option : SPEC_NAME_OPTIONS) {
            result = result.replace("    '" + option + "')\n" + NOTHING, "    '" + option + "')\n"
                    + "      local IFS=$'\\n'\n"
                    + "      COMPREPLY=( $(compgen -W \"$(_gradcheck_spec_names)\" -- \"${curr_word}\") )\n"
                    + "      return 0\n      ;;\n");
        }
        return result;
    }

    private static List<CommandLine> commands(CommandLine root) {
        List<CommandLine> all = new ArrayList<>();
        all.add(root);
        root.getSubcommands().values().forEach(c -> all.addAll(commands(c)));
        return all;
    }

    /** picocli's name for a command's function: {@code _picocli_gradcheck_listops} for list-ops. */
    private static String functionName(CommandLine root, CommandLine command) {
        StringBuilder name = new StringBuilder("_picocli_" + root.getCommandName());
        List<String> path = new ArrayList<>();
        for (CommandLine c = command; c != root && c != null; c = c.getParent()) {
            path.add(0, c.getCommandName().replaceAll("[^A-Za-z0-9_]", ""));
        }
        path.forEach(p -> name.append('_').append(p));
        return name.toString();
    }
}
