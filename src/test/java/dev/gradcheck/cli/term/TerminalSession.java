package dev.gradcheck.cli.term;

import dev.gradcheck.cli.Main;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A person at a terminal: gradcheck runs in a pseudo-terminal (util-linux's {@code script}), keys are typed into
 * it, and what the terminal received is read back, raw and as text with its escape sequences taken out. The JVM
 * is started as bin/gradcheck starts it (the report on fd 3, fd 1 pointed at stderr), from this build's classes.
 */
public final class TerminalSession implements AutoCloseable {

    private final Process process;
    private final OutputStream keys;
    private final StringBuilder received = new StringBuilder();
    private final Thread reader;

    private TerminalSession(Process process) {
        this.process = process;
        this.keys = process.getOutputStream();
        InputStream in = process.getInputStream();
        reader = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    synchronized (received) {
                        received.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                        received.notifyAll();
                    }
                }
            } catch (IOException e) {
                // the session ended
            }
        }, "terminal-reader");
        reader.setDaemon(true);
        reader.start();
    }

    public static boolean available() {
        try {
            Process p = new ProcessBuilder("script", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /**
     * @param term    the terminal type (TERM)
     * @param columns the terminal's width
     * @param args    gradcheck's arguments
     */
    public static TerminalSession start(Path home, String term, int columns, List<String> args) throws IOException {
        String command = "stty cols " + columns + " rows 50; exec " + javaCommand(args) + " 3>&1 1>&2";
        ProcessBuilder pb = new ProcessBuilder("script", "-qfec", command, "/dev/null");
        Map<String, String> env = pb.environment();
        for (String key : new String[] {"COLUMNS", "NO_COLOR", "FORCE_COLOR", "GRADCHECK_DEBUG", "GRADCHECK_HISTORY"}) {
            env.remove(key);
        }
        env.put("TERM", term);
        env.put("HOME", home.toString());
        pb.redirectErrorStream(true);
        return new TerminalSession(pb.start());
    }

    /** java with this build's class path, as bin/gradcheck runs it. */
    static String javaCommand(List<String> args) {
        StringBuilder cmd = new StringBuilder(quote(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.append(" --add-opens java.base/java.io=ALL-UNNAMED -Dgradcheck.stdout.fd=3 -cp ")
                .append(quote(System.getProperty("java.class.path"))).append(" dev.gradcheck.cli.Main");
        args.forEach(a -> cmd.append(' ').append(quote(a)));
        return cmd.toString();
    }

    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** Types keys (\t is Tab, \r Enter, \u0003 Ctrl-C). */
    public TerminalSession type(String text) throws IOException {
        keys.write(text.getBytes(StandardCharsets.UTF_8));
        keys.flush();
        return this;
    }

    /** Waits until the text seen so far (after {@code from}) contains {@code expected}; fails after the timeout. */
    public int waitFor(String expected, int from, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        synchronized (received) {
            while (true) {
                String text = text();
                int at = text.indexOf(expected, Math.min(from, text.length()));
                if (at >= 0) {
                    return at + expected.length();
                }
                long left = end - System.nanoTime();
                if (left <= 0 || !process.isAlive() && !reader.isAlive()) {
                    throw new AssertionError("'" + expected + "' did not appear within " + timeout.toSeconds()
                            + " s; the terminal shows:\n" + text.substring(Math.min(from, text.length())));
                }
                received.wait(Math.max(1, Math.min(200, left / 1_000_000)));
            }
        }
    }

    /** Everything received so far, escape sequences included. */
    public String raw() {
        synchronized (received) {
            return received.toString();
        }
    }

    /** What was received as text: escape sequences and carriage returns taken out, backspaces applied. */
    public String text() {
        String plain = raw().replaceAll("\u001b\\[[0-9;?]*[A-Za-z]", "").replaceAll("\u001b[=>]", "")
                .replace("\r", "");
        StringBuilder out = new StringBuilder();
        for (char c : plain.toCharArray()) {
            if (c == '\b') {
                if (out.length() > 0) {
                    out.setLength(out.length() - 1);
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Waits for the shell to end; its exit code. */
    public int exitCode(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the shell did not end; the terminal shows:\n" + text());
        }
        reader.join(5_000);
        return process.exitValue();
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
