package dev.gradcheck.cli.output;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The process's report stream (stdout, or the descriptor the launcher hands over), remembering why a write failed:
 * a full device, a closed stdout, a broken pipe. Java's print streams swallow such errors; this one lets them through
 * to the writer above (which notes that it failed) and keeps the first reason, so that a lost report is an error
 * exit with a one-line message instead of a silent exit 0. A broken pipe is told apart ({@link #readerLeft}): the
 * reader chose to stop reading ({@code | head}), which, as for git and ripgrep, is no error.
 */
public final class ReportChannel extends OutputStream {

    /** strerror(EPIPE) on Linux and macOS, the message the JDK's native write gives. */
    private static final String BROKEN_PIPE = "Broken pipe";

    private final OutputStream out;
    private final String closedReason;
    private volatile String failure;
    private volatile boolean readerLeft;
    /** What was written while the report is held back ({@link #hold}); null when it goes straight out. */
    private java.io.ByteArrayOutputStream held;

    private ReportChannel(OutputStream out, String closedReason) {
        this.out = out;
        this.closedReason = closedReason;
    }

    /** Writes to {@code descriptor}, as it is (sharing the caller's file offset). */
    public static ReportChannel of(FileDescriptor descriptor) {
        return new ReportChannel(new FileOutputStream(descriptor), null);
    }

    /** A stdout that was closed before gradcheck started: every write fails, saying so. */
    public static ReportChannel closed() {
        return new ReportChannel(OutputStream.nullOutputStream(), "stdout is closed");
    }

    /** Why the first write failed, or null when none did. */
    public String failure() {
        return failure;
    }

    /**
     * Whether the first write failed because the reading end of a pipe was closed (EPIPE: {@code | head -2} had
     * what it wanted): the report was not lost to an error but declined.
     */
    public boolean readerLeft() {
        return readerLeft;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    /**
     * Keeps what is written from now on until {@link #release}: a run in the front end's own JVM, which the
     * launcher runs again in workers if the JVM dies, must not have printed part of its report (bin/gradcheck).
     */
    public synchronized void hold() {
        if (held == null) {
            held = new java.io.ByteArrayOutputStream();
        }
    }

    /** Writes out what was held back, and everything after it straight out; a write that fails is noted. */
    public synchronized void release() {
        if (held == null) {
            return;
        }
        byte[] bytes = held.toByteArray();
        held = null;
        try {
            write(bytes, 0, bytes.length);
            flush();
        } catch (IOException e) {
            // noted: failure() says why, as for any write
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (held != null) {
            held.write(b, off, len);
            return;
        }
        if (closedReason != null && len > 0) {
            throw noted(new IOException(closedReason));
        }
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw noted(e);
        }
    }

    /** Nothing to flush on a closed stdout: a command that wrote nothing there (--output) has lost nothing. */
    @Override
    public synchronized void flush() throws IOException {
        if (held != null) {
            return;
        }
        try {
            out.flush();
        } catch (IOException e) {
            throw noted(e);
        }
    }

    private IOException noted(IOException e) {
        if (failure == null) {
            failure = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            // the JVM ignores SIGPIPE, so EPIPE comes back as an IOException whose message is strerror(EPIPE)
            readerLeft = closedReason == null && BROKEN_PIPE.equals(e.getMessage());
        }
        return e;
    }
}
