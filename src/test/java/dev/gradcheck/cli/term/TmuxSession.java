package dev.gradcheck.cli.term;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * gradcheck in a tmux window, for what only a terminal emulator knows: the screen as it stands after the escape
 * sequences did their work ({@code capture-pane}), e.g. completion candidates laid out in columns under the prompt.
 * A server of its own (a private socket), so nobody's tmux is touched. Tests that use it skip where tmux is absent.
 */
public final class TmuxSession implements AutoCloseable {

    private final String socket;
    private final Path exitFile;

    private TmuxSession(String socket, Path exitFile) {
        this.socket = socket;
        this.exitFile = exitFile;
    }

    public static boolean available() {
        try {
            Process p = new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    public static TmuxSession start(Path dir, int columns, int rows, List<String> args) throws IOException,
            InterruptedException {
        String socket = "gradcheck-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        Path exitFile = dir.resolve("exit-code");
        String command = "export TERM=xterm HOME=" + TerminalSession.quote(dir.toString())
                + "; unset NO_COLOR FORCE_COLOR COLUMNS GRADCHECK_DEBUG; " + TerminalSession.javaCommand(args)
                + " 3>&1 1>&2; echo $? > " + TerminalSession.quote(exitFile.toString()) + "; sleep 600";
        tmux(socket, "-f", "/dev/null", "new-session", "-d", "-s", "gc", "-x", Integer.toString(columns), "-y",
                Integer.toString(rows), "bash", "-c", command);
        return new TmuxSession(socket, exitFile);
    }

    /** Keys as tmux names them: literal text, or "Tab", "Enter", "C-c". */
    public TmuxSession keys(String... keys) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("send-keys", "-t", "gc"));
        args.addAll(List.of(keys));
        tmux(socket, args.toArray(new String[0]));
        return this;
    }

    /** The screen, one string per row (trailing blanks removed). */
    List<String> screen() throws IOException, InterruptedException {
        return tmux(socket, "capture-pane", "-p", "-t", "gc").lines().map(String::stripTrailing).toList();
    }

    /** Waits until some row of the screen contains {@code text}; the screen then. */
    public List<String> waitFor(String text, Duration timeout) throws IOException, InterruptedException {
        return waitFor(text, 1, timeout);
    }

    /** Waits until {@code times} rows of the screen contain {@code text}; the screen then. */
    public List<String> waitFor(String text, int times, Duration timeout) throws IOException, InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        List<String> screen = screen();
        while (screen.stream().filter(l -> l.contains(text)).count() < times) {
            if (System.nanoTime() > end) {
                throw new AssertionError("'" + text + "' did not appear " + times + " time(s) within "
                        + timeout.toSeconds() + " s; the screen:\n" + String.join("\n", screen));
            }
            Thread.sleep(200);
            screen = screen();
        }
        return screen;
    }

    /** The shell's exit code, once it ended. */
    public int exitCode(Duration timeout) throws IOException, InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(exitFile) || Files.readString(exitFile).isBlank()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("the shell did not end; the screen:\n" + String.join("\n", screen()));
            }
            Thread.sleep(200);
        }
        return Integer.parseInt(Files.readString(exitFile).strip());
    }

    private static String tmux(String socket, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("tmux " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            tmux(socket, "kill-server");
        } catch (IOException e) {
            // already gone
        }
    }
}
