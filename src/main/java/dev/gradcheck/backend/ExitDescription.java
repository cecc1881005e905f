package dev.gradcheck.backend;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Says in words how a worker process ended, from its exit status and its last output. */
final class ExitDescription {

    private static final Map<Integer, String> SIGNALS = Map.ofEntries(Map.entry(1, "SIGHUP"), Map.entry(2, "SIGINT"),
            Map.entry(3, "SIGQUIT"), Map.entry(4, "SIGILL"), Map.entry(6, "SIGABRT"), Map.entry(7, "SIGBUS"),
            Map.entry(8, "SIGFPE"), Map.entry(9, "SIGKILL"), Map.entry(11, "SIGSEGV"), Map.entry(13, "SIGPIPE"),
            Map.entry(15, "SIGTERM"));
    /** The JVM's fatal-error banner: {@code #  SIGSEGV (0xb) at pc=...}; the JVM then aborts with SIGABRT. */
    private static final Pattern FATAL_SIGNAL = Pattern.compile("#\\s+(SIG[A-Z]+) \\(0x[0-9a-f]+\\)");
    private static final Pattern STACK_FRAME = Pattern.compile("\\s+(at \\S+\\(.*\\)|\\.\\.\\. \\d+ more)");
    /** Shown at most, from the end: enough for the native message and the JVM's banner. */
    static final int SHOWN_LINES = 16;

    private ExitDescription() {}

    /** Java reports a process killed by signal N as exit status 128 + N. */
    static boolean bySignal(int status, int signal) {
        return status == 128 + signal;
    }

    /** e.g. "killed by signal 6 (SIGABRT)", "SIGSEGV in native code (the JVM caught it and exited with status 1)". */
    static String of(int status, List<String> tail) {
        String fatal = null;
        for (String line : tail) {
            Matcher m = FATAL_SIGNAL.matcher(line);
            if (m.find()) {
                fatal = m.group(1);
            }
        }
        String how;
        boolean signalled = status > 128 && status < 128 + 32;
        int signal = status - 128;
        String name = SIGNALS.getOrDefault(signal, "signal " + signal);
        if (fatal != null) { // the JVM's own handler caught a native fault, then aborted or exited
            how = fatal + " in native code (the JVM caught it and "
                    + (signalled ? "aborted: signal " + signal + ", " + name : "exited with status " + status) + ")";
        } else if (signalled) {
            how = "killed by signal " + signal + " (" + name + ")"
                    + (signal == 9 ? "; the system may have run out of memory" : "");
        } else {
            how = "exited with status " + status;
        }
        StringBuilder text = new StringBuilder("worker crashed: ").append(how);
        // the JVM's banner spaces itself with bare "#" lines, and Java stack frames repeat what the exception line
        // says: both would crowd out the lines that say something
        List<String> meaningful = tail.stream().filter(l -> !l.strip().equals("#") && !STACK_FRAME.matcher(l).matches())
                .toList();
        List<String> shown = meaningful.subList(Math.max(0, meaningful.size() - SHOWN_LINES), meaningful.size());
        if (!shown.isEmpty()) {
            text.append("\nlast worker output:");
            shown.forEach(line -> text.append("\n  ").append(line));
        }
        return text.toString();
    }
}
