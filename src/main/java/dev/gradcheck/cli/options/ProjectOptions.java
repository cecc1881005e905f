package dev.gradcheck.cli.options;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.ProjectFile;
import dev.gradcheck.spec.SourcePos;
import dev.gradcheck.spec.SpecError;
import dev.gradcheck.spec.Suggestions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code --config FILE}, and the project file: gradcheck.yaml in the working directory or the nearest directory
 * above it, whose section named after the command ({@code check:}, {@code validate:}, {@code merge:}) gives
 * defaults for the command's options. An option given on the command line wins over the file; lists (--only,
 * --skip) are replaced, not extended. Values are read by the same converters as the command line, so
 * {@code jobs: x} fails as {@code --jobs x} would, at its position in the file.
 */
public final class ProjectOptions {

    /** Options a project file may not set: they are about this invocation, not the project. */
    private static final Set<String> NOT_IN_FILE = Set.of("--help", "--version", "--config");

    @Option(names = "--config", paramLabel = "FILE",
            description = "Read this project file instead of the nearest " + ProjectFile.NAME + " (in the working"
                    + " directory or above it); its directory is then the project root. See docs/ci.md.")
    public Path config;

    /**
     * The project this command runs in, with the file's settings for the command applied to every option the
     * command line left out; null after printing the file's problems on {@code err} (a usage error).
     */
    public Project load(CommandSpec command, Workspace workspace, PrintWriter err) {
        Optional<Path> path = config != null ? Optional.of(config)
                : ProjectFile.find(workspace.workingDirectory());
        if (path.isEmpty()) {
            return new Project(workspace, null);
        }
        List<SpecError> errors = new ArrayList<>();
        ProjectFile file = null;
        try {
            file = ProjectFile.read(path.get(), display(path.get(), workspace));
            errors.addAll(checkSections(file, command));
            ProjectFile.Section section = file.sections().get(command.name());
            if (section != null) {
                errors.addAll(apply(section, command, file.root()));
            }
        } catch (InvalidSpecException e) {
            errors.addAll(e.errors());
        }
        if (!errors.isEmpty()) {
            errors.forEach(e -> err.println("gradcheck: " + e));
            err.flush();
            return null;
        }
        return new Project(workspace, file);
    }

    /** Where the project file is, for --help: the file, or that there is none and where it was looked for. */
    public static String describe(Path config, Workspace workspace) {
        Optional<Path> found = config != null ? Optional.of(config.toAbsolutePath().normalize())
                : ProjectFile.find(workspace.workingDirectory());
        return found.map(p -> "Project file: " + p + (config != null ? " (--config)" : "") + "; project root "
                        + p.toAbsolutePath().normalize().getParent() + ".")
                .orElse("Project file: none (no " + ProjectFile.NAME + " in " + workspace.workingDirectory()
                        + " or above it); the project root is the working directory.");
    }

    /** The file as the user would write it: relative to the working directory when it is below it. */
    private static String display(Path file, Workspace workspace) {
        Path absolute = file.toAbsolutePath().normalize();
        return absolute.startsWith(workspace.workingDirectory())
                ? workspace.workingDirectory().relativize(absolute).toString() : absolute.toString();
    }

    /** Every section must name a command that reads the file. */
    private static List<SpecError> checkSections(ProjectFile file, CommandSpec command) {
        List<SpecError> errors = new ArrayList<>();
        CommandSpec top = command.parent() == null ? command : command.parent();
        List<String> readers = top.subcommands().entrySet().stream()
                .filter(e -> e.getValue().getCommandSpec().findOption("--config") != null)
                .map(Map.Entry::getKey).toList();
        for (ProjectFile.Section section : file.sections().values()) {
            if (!readers.contains(section.command())) {
                errors.add(new SpecError(section.pos(), "unknown key '" + section.command() + "'"
                        + Suggestions.closest(section.command(), readers).map(s -> " (did you mean '" + s + "'?)")
                                .orElse("") + "; a project file has paths, plugins and a section per command: "
                        + String.join(", ", readers)));
            }
        }
        return errors;
    }

    private static List<SpecError> apply(ProjectFile.Section section, CommandSpec command, Path root) {
        List<SpecError> errors = new ArrayList<>();
        CommandLine.ParseResult parsed = command.commandLine().getParseResult();
        Map<OptionSpec, SourcePos> seen = new HashMap<>();
        List<String> allowed = command.options().stream().map(OptionSpec::longestName)
                .filter(n -> n.startsWith("--") && !NOT_IN_FILE.contains(n)).map(n -> n.substring(2)).toList();
        for (ProjectFile.Setting s : section.settings()) {
            String name = "--" + s.key().replace('_', '-');
            OptionSpec option = command.findOption(name);
            if (option == null || NOT_IN_FILE.contains(option.longestName())) {
                errors.add(new SpecError(s.pos(), "unknown option '" + s.key() + "' for " + command.name()
                        + Suggestions.closest(s.key(), allowed).map(x -> " (did you mean '" + x + "'?)")
                                .orElse("; see gradcheck " + command.name() + " --help")));
                continue;
            }
            SourcePos earlier = seen.putIfAbsent(option, s.pos());
            if (earlier != null) {
                errors.add(new SpecError(s.pos(), "'" + s.key() + "' is set twice (first at line " + earlier.line()
                        + ")"));
                continue;
            }
            if (parsed != null && parsed.hasMatchedOption(option)) {
                continue; // the command line wins
            }
            try {
                option.setValue(relativeTo(root, convert(option, s)));
            } catch (IllegalArgumentException | CommandLine.PicocliException e) {
                errors.add(new SpecError(s.valuePos(), s.key() + ": " + e.getMessage()));
            }
        }
        return errors;
    }

    /** The typed value, through the option's own converters, as if each value had been typed after its name. */
    private static Object convert(OptionSpec option, ProjectFile.Setting s) {
        boolean flag = option.arity().max() == 0;
        if (flag) {
            if (s.list()) {
                throw new IllegalArgumentException("expected true or false, got a list");
            }
            return switch (s.values().get(0).toLowerCase(Locale.ROOT)) {
                case "true", "yes", "on" -> Boolean.TRUE;
                case "false", "no", "off" -> Boolean.FALSE;
                default -> throw new IllegalArgumentException("expected true or false, got '" + s.values().get(0)
                        + "'");
            };
        }
        if (s.list() && !option.isMultiValue()) {
            throw new IllegalArgumentException("expected one value, got a list");
        }
        Holder holder = new Holder();
        OptionSpec probe = OptionSpec.builder(option).getter(holder).setter(holder).initialValue(null)
                .hasInitialValue(false).defaultValue(null).required(false).build();
        List<String> args = new ArrayList<>();
        for (String value : s.values()) {
            args.add(probe.longestName());
            args.add(value);
        }
        CommandLine scratch = new CommandLine(CommandSpec.create().addOption(probe));
        try {
            scratch.parseArgs(args.toArray(new String[0]));
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage().replace("option '" + probe.longestName() + "'",
                    "'" + s.key() + "'"), e);
        }
        return holder.value;
    }

    /** Paths in the project file are relative to the project root, not to wherever the command runs. */
    private static Object relativeTo(Path root, Object value) {
        if (value instanceof Path p) {
            return root.resolve(p);
        }
        if (value instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof Path) {
            return new ArrayList<>(list.stream().map(p -> (Object) root.resolve((Path) p)).toList());
        }
        return value;
    }

    /** Holds what the scratch parse converted. */
    private static final class Holder implements CommandLine.Model.IGetter, CommandLine.Model.ISetter {
        Object value;

        @SuppressWarnings("unchecked")
        @Override
        public <T> T get() {
            return (T) value;
        }

        @SuppressWarnings("unchecked")
        @Override
        public <T> T set(T newValue) {
            T old = (T) value;
            value = newValue;
            return old;
        }
    }
}
