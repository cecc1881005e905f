package dev.gradcheck.cli.shell;

import dev.gradcheck.op.catalog.ArgInfo;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.catalog.OpInfo;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Mode;
import dev.gradcheck.result.Stencil;
import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.SpecDocument;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.jline.builtins.Completers;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine;

/**
 * Tab completion at the shell's prompt, read from the commands' picocli model: the first word completes to a
 * command; a word starting with {@code -} to the command's options; an option's value and a positional parameter
 * to their completion candidates (enum values such as {@code --format}'s), to paths where they take a file, and to
 * what the shell knows for the rest, by parameter label: spec keys ({@code KEY}), the loaded spec's inputs
 * ({@code INPUT}) and its op's attributes ({@code ATTR}), op names, spec names ({@code NAME}, {@code --only}'s and
 * {@code --skip}'s {@code GLOB}: from the paths on the line or the project file, {@link SpecNames}), commands
 * ({@code COMMAND}), and for {@code set KEY VALUE} the values that key takes (op names for {@code op}, modes for
 * {@code mode}, ...). JLine matches the candidates against what was typed.
 */
final class ShellCompleter implements Completer {

    /** Parameter labels that name a file or directory. */
    private static final Set<String> PATH_LABELS = Set.of("FILE", "PATH", "SPEC", "DIR", "JAR");

    private final Shell shell;
    private final Completer files = new Completers.FileNameCompleter();
    private volatile List<String> opNames;

    ShellCompleter(Shell shell) {
        this.shell = shell;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        List<String> words = line.words();
        int index = line.wordIndex();
        if (index == 0) {
            commands(candidates);
            return;
        }
        CommandLine command = command(words);
        if (command == null) {
            return;
        }
        CommandSpec spec = command.getCommandSpec();
        String current = line.word();
        String previous = words.get(index - 1);
        OptionSpec option = spec.findOption(previous);
        if (option != null && option.arity().min() > 0 && !isBoolean(option)) {
            values(option, words, reader, line, candidates);
        } else if (current.startsWith("-")) {
            for (OptionSpec o : spec.options()) {
                if (!o.hidden()) {
                    optionNames(command, o).forEach(n -> candidates.add(described(n, o.description())));
                }
            }
        } else {
            PositionalParamSpec positional = positional(spec, words, index);
            if (positional != null) {
                values(positional, words, reader, line, candidates);
            }
        }
    }

    /** The option's names, and for a negatable one ({@code --compress}) its negative too ({@code --no-compress}). */
    static List<String> optionNames(CommandLine command, OptionSpec o) {
        List<String> names = new ArrayList<>(Arrays.asList(o.names()));
        if (o.negatable()) {
            for (String n : o.names()) {
                String negative = command.getNegatableOptionTransformer().makeNegative(n, command.getCommandSpec());
                if (negative != null && !names.contains(negative)) {
                    names.add(negative);
                }
            }
        }
        return names;
    }

    private void commands(List<Candidate> candidates) {
        shell.verbs().getSubcommands().forEach((name, c) -> candidates.add(command(name, c, "shell")));
        shell.commands().getSubcommands().forEach((name, c) -> {
            if (!shell.verbs().getSubcommands().containsKey(name)) {
                candidates.add(command(name, c, "gradcheck"));
            }
        });
    }

    private static Candidate command(String name, CommandLine c, String group) {
        String[] d = c.getCommandSpec().usageMessage().description();
        return new Candidate(name, name, group, d.length == 0 ? null : firstSentence(d[0]), null, null, true);
    }

    private static Candidate described(String value, String[] description) {
        return new Candidate(value, value, null, description.length == 0 ? null : firstSentence(description[0]), null,
                null, true);
    }

    private static String firstSentence(String text) {
        String plain = text.replaceAll("\\$\\{[^}]*}", "...");
        int stop = plain.indexOf(". ");
        String first = stop > 0 ? plain.substring(0, stop) : plain;
        return first.length() > 60 ? first.substring(0, 57) + "..." : first;
    }

    /** The command a line runs: a shell verb or a gradcheck command ({@code check} alone is both). */
    private CommandLine command(List<String> words) {
        String name = words.get(0);
        CommandLine verb = shell.verbs().getSubcommands().get(name);
        CommandLine command = shell.commands().getSubcommands().get(name);
        // a verb that takes nothing after it (explain) leaves the words that follow to the command of its name
        boolean bare = verb != null && verb.getCommandSpec().positionalParameters().isEmpty()
                && verb.getCommandSpec().options().isEmpty();
        return verb != null && !(bare && command != null) ? verb : command;
    }

    private static boolean isBoolean(OptionSpec option) {
        return option.type() == boolean.class || option.type() == Boolean.class;
    }

    /** The positional parameter the word at {@code index} fills: words that are not options or their values count. */
    private static PositionalParamSpec positional(CommandSpec spec, List<String> words, int index) {
        int position = 0;
        for (int i = 1; i < index; i++) {
            String w = words.get(i);
            OptionSpec option = spec.findOption(w);
            if (option != null) {
                if (option.arity().min() > 0 && !isBoolean(option)) {
                    i++; // its value
                }
            } else if (!w.startsWith("-")) {
                position++;
            }
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (p.index().contains(position) && !p.hidden()) {
                return p;
            }
        }
        return null;
    }

    private void values(ArgSpec arg, List<String> words, LineReader reader, ParsedLine line,
                        List<Candidate> candidates) {
        if (arg.completionCandidates() != null) {
            arg.completionCandidates().forEach(c -> candidates.add(new Candidate(c)));
            return;
        }
        Class<?> type = arg.typeInfo().isMultiValue() ? arg.typeInfo().getAuxiliaryTypes()[0] : arg.type();
        String label = arg.paramLabel().replaceAll("[<>.]", "");
        if (specNames(arg, label, words)) {
            plain(candidates, SpecNames.on(words));
            return;
        }
        if (type == Path.class || type == File.class || PATH_LABELS.contains(label)) {
            files.complete(reader, line, candidates);
            return;
        }
        plain(candidates, known(label, words));
    }

    /**
     * Whether the argument takes a spec's name: {@code --only} and {@code --skip} (an option's GLOB; list-ops'
     * positional GLOB is an op's), {@code --name} and {@code load}'s NAME, but not the name {@code new} gives.
     */
    private static boolean specNames(ArgSpec arg, String label, List<String> words) {
        boolean name = arg.isOption() ? ((OptionSpec) arg).longestName().equals("--name") : label.equals("NAME");
        return arg.isOption() && label.equals("GLOB") || name && !words.get(0).equals("new");
    }

    /** What the shell knows for a parameter label. */
    private Collection<String> known(String label, List<String> words) {
        WorkingSpec working = shell.working();
        return switch (label) {
            case "KEY" -> working.loaded() ? working.doc().keyPaths() : SpecDocument.topLevelKeys();
            case "INPUT" -> working.loaded() && working.doc().spec().isValid()
                    ? working.doc().spec().spec().inputs().stream().map(i -> i.name()).toList() : List.of();
            case "ATTR" -> attributes();
            case "VALUE" -> words.size() > 1 ? valuesOf(words.get(1)) : List.of();
            case "COMMAND" -> shell.commandNames();
            case "GLOB", "OP" -> opNames();
            default -> List.of();
        };
    }

    /** The values a spec key takes, where they form a known set. */
    private Collection<String> valuesOf(String key) {
        if (key.equals("op")) {
            return opNames();
        }
        if (key.equals("mode")) {
            return Mode.specNames();
        }
        if (key.equals("stencil")) {
            return Stencil.specNames();
        }
        if (key.equals("backends")) {
            return Engine.specNames().stream().map(e -> "[" + e + "]").toList();
        }
        if (key.equals("expect")) {
            return List.of("pass", "fail", "error");
        }
        if (key.matches("inputs\\.[^.]+\\.dtype")) {
            return Arrays.stream(DType.values()).map(DType::specName).toList();
        }
        return List.of();
    }

    /** The loaded spec's op's attribute names, as list-ops shows them. */
    private Collection<String> attributes() {
        WorkingSpec working = shell.working();
        if (!working.loaded() || !working.doc().spec().isValid()) {
            return List.of();
        }
        String op = working.doc().spec().spec().op().value();
        return OpCatalog.nd4j().find(op).map(OpInfo::args).orElse(List.of()).stream()
                .filter(a -> a.kind() != ArgInfo.Kind.INPUT).map(ArgInfo::name).toList();
    }

    /** The ops a spec can name (read once; the first Tab may take a moment while ND4J's catalog loads). */
    private List<String> opNames() {
        List<String> names = opNames;
        if (names == null) {
            names = new ArrayList<>(OpCatalog.nd4j().checkableNames());
            opNames = names;
        }
        return names;
    }

    private static void plain(List<Candidate> candidates, Collection<String> values) {
        values.forEach(v -> candidates.add(new Candidate(v)));
    }
}
