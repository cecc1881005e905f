package dev.gradcheck.run;


import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Which signal is ending the JVM. On SIGINT, SIGTERM and SIGHUP the JVM runs its shutdown hooks and exits with
 * 128 + the signal's number (130, 143, 129), but a hook cannot ask which signal it was: the report written there
 * said 130 for all of them. This notes the signal, then hands it on to the handler that was there (the JVM's own),
 * so the exit itself is unchanged and the report can carry the code the process really ends with.
 */
public final class Signals {

    /** The signals the JVM turns into an orderly shutdown, with the number each has on Linux. */
    private static final List<String> SHUTDOWN = List.of("INT", "TERM", "HUP");

    private static volatile Signal received;
    private static boolean watching;

    private Signals() {}

    /** Starts noting shutdown signals in this JVM; once is enough, more calls do nothing. */
    public static synchronized void watch() {
        if (watching) {
            return;
        }
        watching = true;
        for (String name : SHUTDOWN) {
            try {
                Signal signal = new Signal(name);
                SignalHandler[] previous = new SignalHandler[1];
                previous[0] = Signal.handle(signal, s -> {
                    received = s;
                    if (previous[0] != SignalHandler.SIG_IGN) {
                        haltIfStuck(s);
                    }
                    handOn(previous[0], s);
                });
            } catch (IllegalArgumentException e) {
                // not on this platform, or reserved (java -Xrs, nohup's ignored SIGHUP): the JVM keeps its own way
            }
        }
    }

    /**
     * How long the shutdown hooks (the interrupted run's report) may take before the JVM is ended without them: a
     * hook blocked on something that never comes (a FIFO, a lock held by a thread blocked on one) would otherwise
     * keep the process alive after SIGTERM until SIGKILL. The report is moved into place whole, so ending while it is
     * written leaves no half report.
     */
    static final long GRACE_MILLIS = Long.getLong("gradcheck.signal.grace.ms", 20_000); // shorter in tests

    /** Ends the JVM with the signal's code if it is still running {@link #GRACE_MILLIS} after the signal. */
    private static void haltIfStuck(Signal s) {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(GRACE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("gradcheck: still not ended " + GRACE_MILLIS / 1000 + " s after SIG" + s.getName()
                    + "; exiting without waiting for the report");
            System.err.flush();
            Runtime.getRuntime().halt(128 + s.getNumber());
        }, "gradcheck-signal-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** The JVM's own handler exits with 128 + the number; a native default cannot be called from Java: do as it. */
    private static void handOn(SignalHandler previous, Signal s) {
        if (previous == SignalHandler.SIG_IGN) {
            received = null; // ignored before we came: nothing ends
        } else if (previous == null || previous == SignalHandler.SIG_DFL
                || previous.getClass().getName().contains("NativeSignalHandler")) {
            System.exit(128 + s.getNumber());
        } else {
            previous.handle(s);
        }
    }

    /** What a shell exits with after Ctrl-C (SIGINT, signal 2): the code the JVM exits with then. */
    private static final int CTRL_C = 128 + 2;

    /**
     * Whether the JVM is shutting down because code called {@code System.exit} rather than for a signal noted here:
     * a hook that reports an interruption has nothing to report then (a plugin's exit while loading is its loader's
     * guard's to say).
     */
    public static boolean exitCalledWithoutSignal() {
        if (received != null) {
            return false;
        }
        for (StackTraceElement[] stack : Thread.getAllStackTraces().values()) {
            for (StackTraceElement frame : stack) {
                if (frame.getClassName().equals("java.lang.Runtime") && frame.getMethodName().equals("exit")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The exit code of the shutdown under way: 128 + the signal's number, or 130 (Ctrl-C) when none was noted. */
    public static int exitCode() {
        Signal s = received;
        return s == null ? CTRL_C : 128 + s.getNumber();
    }

    /** "SIGTERM", for messages; "an interrupt" when none was noted. */
    public static String name() {
        Signal s = received;
        return s == null ? "an interrupt" : "SIG" + s.getName();
    }
}
