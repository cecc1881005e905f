package dev.gradcheck.cli.shell;

import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.term.HeatMapScreen;
import dev.gradcheck.spec.Suggestions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.Parser;
import org.jline.reader.SyntaxError;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import picocli.CommandLine;

/**
 * {@code gradcheck shell}'s loop: reads a line, runs it, reports its errors in one line and goes on. A line is a
 * shell verb ({@link ShellVerbs}) or any gradcheck command as on the command line ({@code check PATH...},
 * {@code list-ops}, ...), whose checks run on the shell's warm worker. {@code check} alone re-checks the loaded spec.
 *
 * <p>At a terminal it reads through JLine (editing, completion, persistent history, Ctrl-C interrupting the command
 * that runs, not the shell). Anything else (a pipe, a file) is read as a script: no prompt, errors name their line,
 * and the exit code at the end is the highest any line had, so a script's failure is not lost.
 */
public final class Shell implements AutoCloseable {

    /** Said once at a terminal, before the first prompt: how to go on from an empty prompt. */
    static final String HINT = "'help' lists the commands, Tab completes, 'check' re-checks the loaded spec,"
            + " Ctrl-D or 'exit' leaves";

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean color;
    private final dev.gradcheck.cli.term.Terminal screen;
    private final WarmEngines engines;
    private final WorkingSpec working = new WorkingSpec();
    private final CommandLine cli;
    private final CommandLine verbs;
    private final DefaultParser parser = new DefaultParser();
    /** "line 3: " while reading a script, so an error names its line. */
    private String where = "";
    private boolean exitRequested;
    /** The terminal read from, or null for a script. */
    private Terminal terminal;
    private Integer exitCode;

    /**
     * @param cli     gradcheck's commands, as the shell offers them (their checks on {@code engines})
     * @param screen  whether stdout is a terminal and how wide, as every command sees it
     * @param color   colour the results (--color, NO_COLOR, FORCE_COLOR, or stdout a terminal)
     */
    Shell(PrintWriter out, PrintWriter err, dev.gradcheck.cli.term.Terminal screen, boolean color, WarmEngines engines,
          CommandLine cli) {
        this.out = out;
        this.err = err;
        this.screen = screen;
        this.color = color;
        this.engines = engines;
        this.cli = cli;
        this.verbs = new CommandLine(new ShellVerbs(working, engines, this));
        verbs.setOut(out);
        verbs.setErr(err);
        cli.setOut(out);
        cli.setErr(err);
        CommandLine.IParameterExceptionHandler usage = (e, args) -> usageError(e);
        CommandLine.IExecutionExceptionHandler failure = (e, commandLine, parseResult) -> failed(commandLine, e);
        for (CommandLine tree : List.of(cli, verbs)) {
            tree.setParameterExceptionHandler(usage);
            tree.setExecutionExceptionHandler(failure);
        }
    }

    PrintWriter out() {
        return out;
    }

    PrintWriter err() {
        return err;
    }

    boolean color() {
        return color;
    }

    /** The columns a picture may fill: $COLUMNS, else stdout's width, else the line editor's, else 120. */
    int width() {
        int editor = terminal != null && terminal.getWidth() > 0 ? terminal.getWidth()
                : HeatMapScreen.PICTURE_COLUMNS;
        return screen.pictureColumns(editor);
    }

    /** The columns a table may fill, as check's: $COLUMNS, else stdout's width; 0 (no limit) in a pipe. */
    int tableColumns() {
        return screen.tableColumns();
    }

    /** Whether lines are read at a terminal (not a script): where a check shows the time it has taken. */
    boolean interactive() {
        return terminal != null;
    }

    WorkingSpec working() {
        return working;
    }

    CommandLine verbs() {
        return verbs;
    }

    CommandLine commands() {
        return cli;
    }

    /** {@code exit [CODE]}: the loop ends after this line. */
    void requestExit(Integer code) {
        exitRequested = true;
        exitCode = code;
    }

    /**
     * Reads a script to its end or to {@code exit}: every line runs, whatever the lines before it did.
     *
     * @return {@code exit}'s code if it gave one, else the highest exit code of any line (0 when all succeeded)
     */
    int runScript(BufferedReader in) throws IOException {
        int worst = 0;
        int number = 0;
        for (String line = in.readLine(); line != null && !exitRequested; line = in.readLine()) {
            where = "line " + ++number + ": ";
            worst = Math.max(worst, execute(line));
        }
        where = "";
        return exitCode != null ? exitCode : worst;
    }

    /**
     * Reads lines at the terminal until {@code exit} or Ctrl-D. Ctrl-C at the prompt clears the line; during a
     * check it interrupts the check (its worker is replaced).
     *
     * @param history where the history is kept across sessions, or null for none
     * @return {@code exit}'s code, else 0: whoever sat at the terminal saw every error as it came
     */
    int runInteractive(Terminal terminal, Path history) {
        this.terminal = terminal;
        LineReaderBuilder builder = LineReaderBuilder.builder().terminal(terminal).appName("gradcheck")
                .parser(parser).completer(new ShellCompleter(this));
        if (history != null) {
            builder.variable(LineReader.HISTORY_FILE, history).variable(LineReader.HISTORY_FILE_SIZE, 2000);
        }
        LineReader reader = builder.build();
        reader.setOpt(LineReader.Option.HISTORY_IGNORE_DUPS);
        reader.unsetOpt(LineReader.Option.INSERT_TAB); // Tab at an empty prompt lists the commands
        terminal.handle(Terminal.Signal.INT, signal -> engines.interrupt());
        err.println(HINT); // once, before the first prompt: a script gets none
        err.flush();
        while (!exitRequested) {
            String line;
            try {
                line = reader.readLine(prompt());
            } catch (UserInterruptException e) {
                continue; // Ctrl-C at the prompt: a new line, as bash does
            } catch (EndOfFileException e) {
                break; // Ctrl-D
            }
            execute(line);
        }
        try {
            reader.getHistory().save();
        } catch (IOException e) {
            err.println("gradcheck: cannot save the history to " + history + ": " + e.getMessage());
        }
        return exitCode != null ? exitCode : ExitCode.OK.code();
    }

    private String prompt() {
        if (!working.loaded()) {
            return "gradcheck> ";
        }
        return "gradcheck " + working.doc().spec().name() + (working.doc().edited() ? "*" : "") + "> ";
    }

    /** Runs one line; its exit code (0 for a blank line or a comment). */
    int execute(String line) {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
            return ExitCode.OK.code();
        }
        List<String> words;
        try {
            words = parser.parse(trimmed, trimmed.length(), Parser.ParseContext.ACCEPT_LINE).words();
        } catch (SyntaxError e) {
            return fail("cannot read the line: " + e.getMessage());
        }
        return run(words.stream().filter(w -> !w.isEmpty()).toList(), trimmed);
    }

    /**
     * Runs a line already split into words.
     *
     * @param line the line as typed, for a verb that takes a YAML value from it
     */
    int run(List<String> words, String line) {
        String name = words.get(0);
        try {
            CommandLine verb = verb(name, words);
            if (verb != null) { // through the root: picocli runs a subcommand only from there
                return verbs.execute(arguments(verb.getCommandName(), words, line));
            }
            if (cli.getSubcommands().containsKey(name)) {
                return cli.execute(words.toArray(new String[0]));
            }
            if (name.equals("shell")) {
                return fail("already in the shell");
            }
            return fail("unknown command '" + name + "'" + Suggestions.closest(name, commandNames())
                    .map(s -> " (did you mean '" + s + "'?)").orElse("") + "; 'help' lists them");
        } catch (RuntimeException e) { // a bug, not the user's: one line, and the shell goes on
            return failed(verbs, e);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * The shell verb a line names; {@code check} alone (or with only {@code --verbose}) is {@code rerun},
     * {@code explain} alone the verb and {@code explain FILE} the command.
     */
    private CommandLine verb(String name, List<String> words) {
        if (name.equals("check") && words.subList(1, words.size()).stream()
                .allMatch(w -> w.equals("-v") || w.equals("--verbose"))) {
            return verbs.getSubcommands().get("rerun");
        }
        if (name.equals("explain") && words.size() > 1) {
            return null; // explain FILE: the gradcheck command
        }
        return verbs.getSubcommands().get(name);
    }

    /**
     * The verb and the words after it; a YAML value is taken from the line as typed
     * ({@link ShellVerbs#YAML_AFTER}).
     */
    private static String[] arguments(String verb, List<String> words, String line) {
        Integer before = ShellVerbs.YAML_AFTER.get(verb);
        List<String> args = new ArrayList<>(words.subList(1, words.size()));
        if (before != null && words.size() > before && words.get(0).equals(verb)) {
            args = new ArrayList<>(words.subList(1, before));
            args.add("--"); // a value such as -1 is a value, not an option
            args.add(rawAfter(line, before));
        }
        args.add(0, verb);
        return args.toArray(new String[0]);
    }

    /** The line after its first {@code n} blank-separated words, as typed. */
    static String rawAfter(String line, int n) {
        int i = 0;
        for (int w = 0; w < n; w++) {
            while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            while (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
        }
        return line.substring(i).strip();
    }

    /** Every name a line can start with. */
    List<String> commandNames() {
        TreeSet<String> names = new TreeSet<>(verbs.getSubcommands().keySet());
        names.addAll(cli.getSubcommands().keySet());
        return List.copyOf(names);
    }

    /** {@code help}: the commands, one line each; {@code help NAME}: that command's usage. */
    int help(String command) {
        int width = width();
        if (command != null) {
            CommandLine c = verbs.getSubcommands().containsKey(command) ? verbs.getSubcommands().get(command)
                    : cli.getSubcommands().get(command);
            if (c == null) {
                return fail("no command '" + command + "'; 'help' lists them");
            }
            c.getCommandSpec().usageMessage().width(Math.max(55, width)); // picocli wraps at the terminal's width
            c.usage(out);
            return ExitCode.OK.code();
        }
        wrap("Shell commands (the spec being worked on):", "", width).forEach(out::println);
        list(verbs.getSubcommands(), width);
        out.println();
        wrap("gradcheck commands, as on the command line (their checks run on the shell's warm worker):", "", width)
                .forEach(out::println);
        list(cli.getSubcommands(), width);
        out.println();
        wrap("'help COMMAND' shows one in full. Tab completes commands, options, paths, op names and spec keys;"
                + " Ctrl-C stops a check, Ctrl-D or 'exit' leaves.", "", width).forEach(out::println);
        return ExitCode.OK.code();
    }

    /** Each command's first sentence, whole, wrapped at {@code width} under itself. */
    private void list(Map<String, CommandLine> commands, int width) {
        String hanging = " ".repeat(13);
        commands.forEach((name, c) -> {
            if (name.equals(c.getCommandName())) { // aliases share their command's line
                String[] description = c.getCommandSpec().usageMessage().description();
                String first = description.length == 0 ? "" : description[0];
                if ((first.endsWith(":") || first.endsWith("e.g.")) && description.length > 1) {
                    first += " " + description[1].strip(); // its examples follow in the next paragraph
                }
                List<String> lines = wrap(firstSentence(first), hanging, width);
                out.printf("  %-10s %s%n", name, lines.get(0).strip());
                lines.stream().skip(1).forEach(out::println);
            }
        });
    }

    /** Up to the first full stop that ends a sentence: not the one of "e.g." or "i.e.". */
    static String firstSentence(String text) {
        for (int stop = text.indexOf(". "); stop > 0; stop = text.indexOf(". ", stop + 1)) {
            String before = text.substring(0, stop);
            if (!before.endsWith("e.g") && !before.endsWith("i.e") && !before.endsWith("etc")) {
                return text.substring(0, stop + 1);
            }
        }
        return text;
    }

    /** The text's words in lines of at most {@code width} (a word longer than a line gets its own), each indented. */
    static List<String> wrap(String text, String indent, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(indent);
        for (String word : text.split(" +")) {
            if (line.length() > indent.length() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line = new StringBuilder(indent);
            }
            line.append(line.length() > indent.length() ? " " : "").append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    /** A usage error: one line and the way to the command's help. */
    private int usageError(CommandLine.ParameterException e) {
        String command = e.getCommandLine().getCommandName();
        return fail(command + ": " + e.getMessage() + " (see 'help " + command + "')");
    }

    /** A command that threw: a bad value is one line; anything else is a bug, said as such without a stack trace. */
    private int failed(CommandLine command, Exception e) {
        if (e instanceof IllegalArgumentException || e instanceof java.io.IOException
                || e instanceof java.io.UncheckedIOException) {
            return fail(command.getCommandName() + ": " + e.getMessage());
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return fail(command.getCommandName() + ": interrupted");
        }
        boolean debug = System.getenv("GRADCHECK_DEBUG") != null;
        fail(command.getCommandName() + ": internal error: " + e
                + (debug ? "" : " (set GRADCHECK_DEBUG=1 for the stack trace)"));
        if (debug) {
            e.printStackTrace(err);
        }
        return ExitCode.OP_ERROR.code();
    }

    private int fail(String message) {
        err.println(where + message);
        err.flush();
        return ExitCode.USAGE.code();
    }

    @Override
    public void close() {
        out.flush();
        err.flush();
    }
}
