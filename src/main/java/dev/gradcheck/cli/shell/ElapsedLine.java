package dev.gradcheck.cli.shell;

import java.io.PrintWriter;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A sign of life under a check at the shell's prompt: from its first second on, {@code checking NAME: 3 s elapsed
 * (Ctrl-C stops it)} on stderr, redrawn each second over itself with a carriage return (no escape sequence, so a dumb
 * terminal shows it too) and blanked when the check ends. Only at a terminal: a script's stderr gets none.
 */
final class ElapsedLine implements AutoCloseable {

    private static final ScheduledExecutorService CLOCK = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "gradcheck-shell-clock");
        t.setDaemon(true);
        return t;
    });

    private final PrintWriter err;
    private final String name;
    private final long start = System.nanoTime();
    private final ScheduledFuture<?> tick;
    private int drawn;

    private ElapsedLine(PrintWriter err, String name) {
        this.err = err;
        this.name = name;
        this.tick = CLOCK.scheduleAtFixedRate(this::draw, 1, 1, TimeUnit.SECONDS);
    }

    /** Starts the line for a check of {@code name}; one that draws nothing where {@code shown} is false. */
    static ElapsedLine start(PrintWriter err, String name, boolean shown) {
        return shown ? new ElapsedLine(err, name) : null;
    }

    private synchronized void draw() {
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        String line = "checking " + name + ": " + seconds + " s elapsed (Ctrl-C stops it)";
        err.print("\r" + line + " ".repeat(Math.max(0, drawn - line.length())));
        err.flush();
        drawn = line.length();
    }

    @Override
    public synchronized void close() {
        tick.cancel(false);
        if (drawn > 0) {
            err.print("\r" + " ".repeat(drawn) + "\r");
            err.flush();
        }
    }
}
