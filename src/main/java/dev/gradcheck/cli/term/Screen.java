package dev.gradcheck.cli.term;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.function.IntSupplier;

/**
 * The terminal during a run: the report's rows on stdout, messages on stderr, and, when stderr is a terminal, one
 * status line under them that is redrawn in place. Every write goes through here, so the status line is erased
 * before anything else is written and drawn again after it, never left half-overwritten in the scrollback. Without
 * a status line, writes pass straight through.
 */
public final class Screen {

    /** Carriage return, then erase to the end of the line (ANSI EL), which every terminal but a dumb one knows. */
    private static final String ERASE = "\r\u001b[K";

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean statusLine;
    private final IntSupplier errColumns;
    private final boolean reportOnSameTerminal;
    private String status = "";
    private boolean drawn;

    /**
     * @param statusLine           draw a status line on {@code err} (a terminal that understands ANSI erase)
     * @param errColumns           stderr's width now, to keep the status line on one row (0: unknown)
     * @param reportOnSameTerminal stdout is a terminal too: erase the status line before writing the report there
     */
    public Screen(PrintWriter out, PrintWriter err, boolean statusLine, IntSupplier errColumns,
                  boolean reportOnSameTerminal) {
        this.out = out;
        this.err = err;
        this.statusLine = statusLine;
        this.errColumns = errColumns;
        this.reportOnSameTerminal = reportOnSameTerminal;
    }

    /** Writes without a status line, for text that is not a terminal's. */
    static Screen plain(PrintWriter out, PrintWriter err) {
        return new Screen(out, err, false, () -> 0, false);
    }

    public boolean hasStatusLine() {
        return statusLine;
    }

    /** Replaces the status line (shortened to the terminal's width, so it stays one row). */
    public synchronized void status(String text) {
        if (!statusLine) {
            return;
        }
        int width = errColumns.getAsInt();
        status = width > 1 && text.length() >= width ? text.substring(0, width - 2) + "…" : text;
        err.print(ERASE + status);
        err.flush();
        drawn = true;
    }

    /** Erases the status line for good (the run is over); later writes pass straight through. */
    public synchronized void endStatus() {
        erase();
        status = "";
    }

    /** stdout, for the report: writes whole chunks around the status line. */
    PrintWriter out() {
        return new PrintWriter(new Chunks(true), true);
    }

    /** stderr, for messages: whole lines, each under the status line's erasure. */
    public PrintWriter err() {
        return new PrintWriter(new Chunks(false), true);
    }

    private synchronized void write(boolean report, String text) {
        boolean shared = !report || reportOnSameTerminal;
        if (shared) {
            erase();
        }
        PrintWriter to = report ? out : err;
        to.print(text);
        to.flush();
        if (shared && !drawn && !status.isEmpty() && text.endsWith("\n")) {
            err.print(ERASE + status);
            err.flush();
            drawn = true;
        }
    }

    private void erase() {
        if (drawn) {
            err.print(ERASE);
            err.flush();
            drawn = false;
        }
    }

    /**
     * Collects text until a line ends (stderr) or the writer is flushed (stdout, whose renderers write whole rows),
     * then writes it in one go.
     */
    private final class Chunks extends Writer {

        private final boolean report;
        private final StringBuilder pending = new StringBuilder();

        Chunks(boolean report) {
            this.report = report;
        }

        @Override
        public void write(char[] chars, int off, int len) {
            synchronized (Screen.this) {
                pending.append(chars, off, len);
                int end = pending.lastIndexOf("\n");
                if (!report && end >= 0) {
                    Screen.this.write(false, pending.substring(0, end + 1));
                    pending.delete(0, end + 1);
                }
            }
        }

        @Override
        public void flush() {
            synchronized (Screen.this) {
                if (pending.length() > 0) {
                    Screen.this.write(report, pending.toString());
                    pending.setLength(0);
                }
                (report ? out : err).flush();
            }
        }

        @Override
        public void close() {
            flush();
        }
    }
}
