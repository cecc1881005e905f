package dev.gradcheck.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Where System.out goes once stdout is reserved for reports: on to stderr, line by line, minus SameDiff's
 * "Added differentiated op ..." lines, which it prints for every gradient it builds and which tell a user nothing.
 */
final class ChatterFilter extends OutputStream {

    private static final String CHATTER = "Added differentiated op ";

    private final OutputStream target;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    ChatterFilter(OutputStream target) {
        this.target = target;
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
