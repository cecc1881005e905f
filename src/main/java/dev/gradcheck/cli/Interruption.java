package dev.gradcheck.cli;

import dev.gradcheck.run.Signals;

/**
 * What a signal does to a {@code check} at each moment after its arguments are parsed. The JVM ends on SIGINT,
 * SIGTERM or SIGHUP once its shutdown hooks return, so the one hook, added as the command starts, must write the
 * report whatever the command is doing: before the report's writer is ready (the project file is being read) it
 * waits for it; once it is ready, while specs, plugins and engines are readied, it writes a report with no checks,
 * marked interrupted; once the run started, it interrupts the run, which writes the checks that finished.
 */
final class Interruption {

    /**
     * How long a signal's hook waits for the report's writer. Reading the project file and checking the options
     * take milliseconds; this bounds the wait should that ever block.
     */
    private static final long WAIT_MILLIS = 10_000;

    /** What the signal does now; null until the report can be written. */
    private Runnable action;
    /** The command ended (or will write no report, as --collect-only): a signal has nothing to write. */
    private boolean over;
    /** A signal came: the run must not start (in the shell, whose process goes on, it would run unreported). */
    private boolean signalled;

    /**
     * From now on a signal runs {@code then}.
     *
     * @return false when a signal came already: the command must stop, the report being written (or out)
     */
    synchronized boolean then(Runnable then) {
        action = then;
        notifyAll();
        return !signalled;
    }

    /** From now on a signal does nothing here: the command is over, or writes no report. */
    synchronized void over() {
        over = true;
        notifyAll();
    }

    /** The signal's hook: does what the command's moment asks, after waiting (bounded) for the writer. */
    void interrupt() {
        if (Signals.exitCalledWithoutSignal()) {
            return; // no signal: an exit called while the command ran (a plugin's) is said by whoever caught it
        }
        Runnable now;
        synchronized (this) {
            signalled = true;
            long deadline = System.currentTimeMillis() + WAIT_MILLIS;
            while (action == null && !over && System.currentTimeMillis() < deadline) {
                try {
                    wait(Math.max(1, deadline - System.currentTimeMillis()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            now = action; // even when the command is over: it may have ended because of this very signal
        }
        if (now != null) {
            now.run();
        }
    }
}
