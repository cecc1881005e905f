package dev.gradcheck.backend.nd4j;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * System.out minus SameDiff's "Added differentiated op ..." lines, which SameDiff prints with a bare
 * {@code System.out.println} for every gradient it builds and which tell a user nothing. The CLI sends System.out
 * through it to stderr for good (stdout is reserved for reports); the library ({@code api.GradCheck}) puts it in
 * front of the caller's own System.out only while a check runs, so a test's stdout keeps what the test printed.
 */
public final class ChatterFilter extends OutputStream {

    private static final String CHATTER = "Added differentiated op ";

    private static final Object LOCK = new Object();
    private static int depth;
    private static PrintStream original;
    private static PrintStream filtered;

    private final OutputStream target;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    /** Writes everything but SameDiff's chatter on to {@code target}, line by line. */
    public ChatterFilter(OutputStream target) {
        this.target = target;
    }

    /**
     * Runs {@code work} with System.out filtered, then puts the caller's System.out back. Nested and concurrent
     * calls share one filter; the last to leave restores the stream (unless the caller replaced it meanwhile).
     */
    public static <T> T whileRunning(Supplier<T> work) {
        synchronized (LOCK) {
            if (depth++ == 0) {
                original = System.out;
                filtered = new PrintStream(new ChatterFilter(original), true, Charset.defaultCharset());
                System.setOut(filtered);
            }
        }
        try {
            return work.get();
        } finally {
            synchronized (LOCK) {
                if (--depth == 0) {
                    filtered.flush();
                    if (System.out == filtered) {
                        System.setOut(original);
                    }
                    original = null;
                    filtered = null;
                }
            }
        }
    }

    @Override
    public synchronized void write(int b) throws IOException {
        line.write(b);
        if (b == '\n') {
            flushLine();
        }
    }

    @Override
    public synchronized void flush() throws IOException {
        flushLine();
        target.flush();
    }

    private void flushLine() throws IOException {
        if (line.size() == 0) {
            return;
        }
        if (!line.toString(StandardCharsets.UTF_8).startsWith(CHATTER)) {
            line.writeTo(target);
        }
        line.reset();
    }
}
