package dev.gradcheck.backend;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the engine prints in this JVM (ND4J's log lines, SameDiff's chatter), kept off the terminal: captured per
 * check where a check runs here, shown only where the user asked ({@code --verbose}). A worker's lines come in over
 * its pipes ({@link WorkerProcess}) and are shown through the same {@link #show}.
 *
 * <p>{@link #install} replaces System.out and System.err with streams that route whole lines: a line written on a
 * thread that is running a check in this JVM ({@link #capture}) is kept for that check's result; any other line goes
 * where the installer said (the front end sends System.out, where it points ND4J's logger, to {@link #show}, and
 * System.err to the real stderr). One JVM has one System.out, so this is JVM-wide, like the streams it replaces.
 */
public final class EngineOutput {

    /** SameDiff prints this for every gradient it builds: nobody needs it, not even in a check's log. */
    static final String CHATTER = "Added differentiated op ";

    private static final ThreadLocal<CappedLines<String>> CAPTURING = new ThreadLocal<>();
    private static volatile Consumer<String> display;
    private static Router out;
    private static Router err;

    private EngineOutput() {}

    /**
     * Puts the routing streams in place of System.out and System.err.
     *
     * @param outElsewhere where System.out's lines go when no check on their thread captures them
     * @param errElsewhere likewise for System.err's
     */
    public static synchronized void install(Consumer<String> outElsewhere, Consumer<String> errElsewhere) {
        out = new Router(outElsewhere);
        err = new Router(errElsewhere);
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** Installed, if nobody did yet, passing every line not captured on to the streams as they are now. */
    static synchronized void ensureInstalled() {
        if (out == null) {
            PrintStream stdout = System.out;
            PrintStream stderr = System.err;
            install(stdout::println, stderr::println);
        }
    }

    /** Where engine lines are shown from now on; null shows none (the default: they stay in the checks' logs). */
    public static void showTo(Consumer<String> lines) {
        display = lines;
    }

    /**
     * Shows engine lines to {@code lines} (a command's --verbose) until the returned handle is closed, which puts
     * back what was shown before: a shell's session, or GRADCHECK_DEBUG, outlives one command's --verbose.
     *
     * @param lines where to show them; null leaves the display as it is
     */
    public static Shown showingTo(Consumer<String> lines) {
        Consumer<String> before = display;
        if (lines != null) {
            display = lines;
        }
        return () -> display = before;
    }

    /** A --verbose in force; closing it ends it. */
    public interface Shown extends AutoCloseable {
        @Override
        void close();
    }

    /** Shows one line the engine printed, where the user asked to see them, if anywhere. */
    public static void show(String line) {
        Consumer<String> to = display;
        if (to != null && !line.startsWith(CHATTER) && !line.isBlank()) {
            to.accept(line);
        }
    }

    /**
     * Runs {@code body} (a check) on this thread, keeping what Java prints on this thread meanwhile in
     * {@code printed}, in order (blank lines and SameDiff's chatter left out, each line cut and the lines capped as
     * {@link CappedLines} says); with a display, they are shown too.
     */
    public static <T> T capture(Supplier<T> body, CappedLines<String> printed) {
        ensureInstalled();
        CappedLines<String> previous = CAPTURING.get();
        CAPTURING.set(printed);
        try {
            return body.get();
        } finally {
            System.out.flush();
            System.err.flush();
            out.endLine(false);
            err.endLine(false);
            CAPTURING.set(previous);
        }
    }

    /** Assembles lines per thread; a line of a capturing thread goes to its check, any other to {@code elsewhere}. */
    private static final class Router extends OutputStream {

        private final Consumer<String> elsewhere;
        private final ThreadLocal<ByteArrayOutputStream> pending = ThreadLocal.withInitial(ByteArrayOutputStream::new);

        Router(Consumer<String> elsewhere) {
            this.elsewhere = elsewhere;
        }

        @Override
        public void write(int b) {
            if (b == '\n') {
                endLine(true);
            } else {
                pending.get().write(b);
            }
        }

        @Override
        public void write(byte[] bytes, int off, int len) {
            ByteArrayOutputStream line = pending.get();
            int start = off;
            for (int i = off; i < off + len; i++) {
                if (bytes[i] == '\n') {
                    line.write(bytes, start, i - start);
                    endLine(true);
                    start = i + 1;
                }
            }
            line.write(bytes, start, off + len - start);
        }

        /** The thread's pending text as one line: at a newline (an empty line too), or whatever is pending. */
        void endLine(boolean newline) {
            ByteArrayOutputStream line = pending.get();
            if (line.size() == 0 && !newline) {
                return;
            }
            String text = line.toString(StandardCharsets.UTF_8);
            line.reset();
            if (text.endsWith("\r")) {
                text = text.substring(0, text.length() - 1);
            }
            CappedLines<String> check = CAPTURING.get();
            if (check == null) {
                elsewhere.accept(text);
            } else if (!text.startsWith(CHATTER) && !text.isBlank()) {
                check.add(CappedLines.cut(text));
                show(text);
            }
        }
    }
}
