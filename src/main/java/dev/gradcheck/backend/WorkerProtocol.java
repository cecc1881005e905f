package dev.gradcheck.backend;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.spec.Overrides;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What the front end and a worker say to each other, one JSON object per line. Requests go to the worker's
 * stdin. Replies come back on the worker's stdout, which libnd4j's native code also printf()s onto: so every
 * reply line carries {@link #FRAME} and everything else on that stream is noise for the crash report. Results
 * are written by Jackson's record support, so a field added to {@link CheckResult} travels without changes here.
 */
public final class WorkerProtocol {

    /** Starts every reply; a control character and a name, which no native diagnostic prints. */
    static final String FRAME = "\u0001gradcheck-worker ";
    /**
     * Starts every line Java code in the worker printed (ND4J's logs, a plugin's println): the worker sends them down
     * its stdout with the replies and libnd4j's printf()s, so the front end gets one stream in the order it was
     * written, and this mark tells Java's lines from native ones.
     */
    static final char JAVA_LINE = '\u0002';
    /** The worker's first reply: ND4J is initialised and requests may come. */
    public static final String READY = "ready";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES) // a newer worker may say more
            .build();

    private WorkerProtocol() {}

    /**
     * Check one spec document, take its {@link BackendSample}, or validate it ({@link Validation}).
     *
     * @param file     the spec file, as the front end named it (the worker shares its working directory)
     * @param location the document's {@code file:line:col}, which picks it among the file's documents
     * @param overrides the command line's checking settings, which win over the spec's
     * @param jacobians which compared blocks the reply carries whole (null, from an older front end: none)
     * @param text     the file's text as the front end read it (or a spec edited in the shell), to read instead of
     *                 the file; null when it was sent before ({@code textKept}) or the file is to be read
     * @param textKept the text of {@code file} sent with an earlier request to this worker is still the one: a
     *                 file's text travels once per worker, not once per spec
     */
    public record Request(long id, String file, String location, Kind kind, Overrides overrides,
                   JacobianCapture jacobians, String text, boolean textKept) {
        /** A spec read from its file. */
        Request(long id, String file, String location, Kind kind, Overrides overrides, JacobianCapture jacobians) {
            this(id, file, location, kind, overrides, jacobians, null, false);
        }

        public enum Kind { CHECK, SAMPLE, VALIDATE }
    }

    /**
     * The outcome of one request: a result for CHECK and VALIDATE, a sample (or null) for SAMPLE.
     *
     * @param retiring the VirtualMachineError (e.g. "OutOfMemoryError") after which the worker exits following this
     *                 reply, its JVM no longer to be trusted with another check; null otherwise
     */
    public record Reply(long id, CheckResult result, BackendSample sample, String retiring) {

        public Reply(long id, CheckResult result, BackendSample sample) {
            this(id, result, sample, null);
        }
    }

    public static String encode(Object message) {
        try {
            return JSON.writeValueAsString(message);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T decode(String json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The framed payload in a line of the worker's stdout, or null for noise. */
    static String unframe(String line) {
        int at = line.indexOf(FRAME); // native output without a newline may precede the frame on its line
        return at < 0 ? null : line.substring(at + FRAME.length());
    }
}
