package dev.gradcheck.cli.term;

import dev.gradcheck.cli.options.ColorMode;
import java.util.Map;
import java.util.function.IntSupplier;
import org.jline.terminal.spi.SystemStream;
import org.jline.terminal.spi.TerminalProvider;

/**
 * What gradcheck knows of where its text goes: whether the report's destination (stdout) and stderr are terminals,
 * how wide they are, and the environment that tunes colour and width.
 *
 * <p>Under {@code bin/gradcheck} the JVM sees neither stream as it is: the launcher hands the real stdout over as
 * fd 3 and points fd 1 at stderr (libnd4j printf()s there). So the launcher, which still sees them, tests both
 * ({@code [ -t 1 ]}, {@code [ -t 2 ]}, {@code stty size}) and passes what it found as system properties. Started any
 * other way ({@code java -jar}), JLine's native terminal provider answers for fds 1 and 2. JLine also measures
 * stderr's width afresh whenever the status line is drawn, so a resized window does not garble it.
 *
 * @param reportTerminal whether stdout, where the report goes, is a terminal
 * @param reportColumns  its width in columns; 0 when not a terminal or unknown
 * @param errTerminal    whether stderr is a terminal (the status line is drawn only then)
 * @param errColumns     stderr's width now; 0 when unknown
 * @param env            the environment (TERM, COLUMNS, NO_COLOR, FORCE_COLOR)
 */
public record Terminal(boolean reportTerminal, int reportColumns, boolean errTerminal, IntSupplier errColumns,
                Map<String, String> env) {

    static final String STDOUT_TTY = "gradcheck.stdout.tty";
    static final String STDOUT_COLUMNS = "gradcheck.stdout.columns";
    static final String STDERR_TTY = "gradcheck.stderr.tty";
    static final String STDERR_COLUMNS = "gradcheck.stderr.columns";

    /** Nothing is a terminal: tests, and text captured in memory. */
    public static Terminal none() {
        return new Terminal(false, 0, false, () -> 0, Map.of());
    }

    /** The streams of this process, as the launcher or JLine says; the real environment. */
    public static Terminal detect() {
        Map<String, String> env = System.getenv();
        boolean launched = System.getProperty(STDOUT_TTY) != null;
        TerminalProvider jline = null;
        boolean reportTty;
        int reportCols;
        boolean errTty;
        if (launched) {
            reportTty = Boolean.parseBoolean(System.getProperty(STDOUT_TTY));
            reportCols = intProperty(STDOUT_COLUMNS);
            errTty = Boolean.parseBoolean(System.getProperty(STDERR_TTY));
        } else {
            jline = jline();
            reportTty = jline != null && jline.isSystemStream(SystemStream.Output);
            reportCols = reportTty ? width(jline, SystemStream.Output) : 0;
            errTty = jline != null && jline.isSystemStream(SystemStream.Error);
        }
        IntSupplier errCols = () -> 0;
        if (errTty) {
            int known = intProperty(STDERR_COLUMNS);
            TerminalProvider loaded = jline;
            // JLine is loaded when the status line is first drawn, not for every command that never draws one
            errCols = new IntSupplier() {
                private TerminalProvider provider = loaded;
                private boolean tried = loaded != null;

                @Override
                public synchronized int getAsInt() {
                    if (!tried) {
                        tried = true;
                        provider = jline();
                    }
                    int now = provider == null ? 0 : width(provider, SystemStream.Error);
                    return now > 0 ? now : known;
                }
            };
        }
        return new Terminal(reportTty, reportCols, errTty, errCols, env);
    }

    /**
     * The width the table fits into: COLUMNS when set (a positive number; 0 means no limit), else the report
     * terminal's width; 0, no limit, when the report does not go to a terminal (a file, a pipe, a CI log).
     */
    public int tableColumns() {
        String columns = env.get("COLUMNS");
        if (columns != null && !columns.isBlank()) {
            try {
                return Math.max(0, Integer.parseInt(columns.strip()));
            } catch (NumberFormatException e) {
                // not a number: ignore it, as other tools do
            }
        }
        return reportTerminal ? reportColumns : 0;
    }

    /**
     * The width a picture (explain's heat maps) is laid out for: {@link #tableColumns()} where that is known, else
     * {@code fallback}; at least 40 columns. Unlike a table, a picture needs some width even in a pipe.
     */
    public int pictureColumns(int fallback) {
        int columns = tableColumns();
        return Math.max(40, columns > 0 ? columns : fallback);
    }

    /** Whether the report (stdout) is coloured under {@code mode}: --color, NO_COLOR, FORCE_COLOR, a terminal. */
    public boolean colors(ColorMode mode) {
        return mode.colors(reportTerminal, env);
    }

    /** A terminal that understands cursor movement: not TERM=dumb (Emacs shells, some CI consoles). */
    public boolean smartTerm() {
        String term = env.get("TERM");
        return term != null && !term.isBlank() && !term.equals("dumb");
    }

    private static int intProperty(String name) {
        try {
            return Math.max(0, Integer.parseInt(System.getProperty(name, "0").strip()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** JLine's JNI terminal provider (no exec, no extra processes), or null where it cannot load. */
    private static TerminalProvider jline() {
        try {
            return TerminalProvider.load("jni");
        } catch (Exception | LinkageError e) {
            return null;
        }
    }

    private static int width(TerminalProvider provider, SystemStream stream) {
        try {
            return Math.max(0, provider.systemStreamWidth(stream));
        } catch (RuntimeException | LinkageError e) {
            return 0;
        }
    }
}
