package dev.gradcheck.backend;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A worker's stdout, which three writers share: its replies, the lines Java code prints (System.out and System.err
 * are routed here, marked {@link WorkerProtocol#JAVA_LINE}), and libnd4j's printf()s, which Java cannot route. All in
 * one pipe, the front end reads them in the order they were written, so everything before a reply belongs to its
 * check. Each line is one write to the unbuffered descriptor, under one lock, so Java's lines never split a reply.
 */
public final class WorkerStdout {

    private final OutputStream fd;

    public WorkerStdout(OutputStream fd) {
        this.fd = fd;
    }

    /** A line Java code printed; blank lines and SameDiff's chatter are not worth the pipe. */
    public void javaLine(String line) {
        if (!line.isBlank() && !line.startsWith(EngineOutput.CHATTER)) {
            write(WorkerProtocol.JAVA_LINE + line + "\n");
        }
    }

    /** One reply, framed. */
    public void reply(String payload) {
        write(WorkerProtocol.FRAME + payload + "\n");
    }

    private synchronized void write(String line) {
        try {
            fd.write(line.getBytes(StandardCharsets.UTF_8));
            fd.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the front end stopped reading", e);
        }
    }
}
