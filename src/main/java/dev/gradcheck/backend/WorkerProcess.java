package dev.gradcheck.backend;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One running worker JVM: a request stream in, framed replies out, and everything else it printed: kept for the
 * current check ({@link #takePrinted}), kept in a tail for the report of a crash, and shown only where the user asked
 * ({@link EngineOutput#show}, {@code --verbose}). Two daemon threads read its stdout and stderr so that neither pipe
 * can fill up and stall it.
 */
public final class WorkerProcess {

    /** Lines of worker output kept for a crash report. */
    private static final int TAIL_LINES = 60;
    /** Put on the reply queue when the worker's stdout closes: the worker is gone. */
    private static final String GONE = "\u0000gone";

    /** What waiting for a reply came to. */
    record Outcome(Kind kind, String payload) {
        enum Kind { REPLY, EXITED, TIMED_OUT }
    }

    /** Every worker this JVM started and has not yet seen end, for {@link #killAll()}. */
    private static final java.util.Set<Process> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final Process process;
    private final Writer requests;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    private final OutputTail tail = new OutputTail(TAIL_LINES);
    /** What the worker printed since the current check was sent (its start-up, before the first). */
    private final CappedLines<PrintedLine> printed = new CappedLines<>();
    private final Thread stderrReader;

    private WorkerProcess(Process process) {
        this.process = process;
        LIVE.add(process);
        process.onExit().thenRun(() -> LIVE.remove(process));
        this.requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        daemon("gradcheck-worker-stdout", () -> readStdout(process.getInputStream())).start();
        stderrReader = daemon("gradcheck-worker-stderr", () -> readLines(process.getErrorStream()));
        stderrReader.start();
    }

    /**
     * A worker started before its front end read the command line ({@link WorkerPool#startEarly}), kept for the
     * first {@link #start} with equal options; null when there is none.
     */
    private static WorkerProcess early;
    private static WorkerOptions earlyOptions;

    static WorkerProcess start(WorkerOptions options) throws IOException {
        synchronized (WorkerProcess.class) {
            WorkerProcess adopted = early;
            boolean same = options.equals(earlyOptions);
            early = null;
            earlyOptions = null;
            if (adopted != null) {
                if (same && adopted.isAlive()) {
                    return adopted;
                }
                adopted.kill(); // started for another run than this one turned out to be
            }
        }
        return spawn(options);
    }

    /** Starts a worker now and keeps it for the first {@link #start} with these options. */
    static synchronized void startEarly(WorkerOptions options) throws IOException {
        discardEarly();
        early = spawn(options);
        earlyOptions = options;
    }

    /** The early worker's process, if one waits (tests watch it). */
    static synchronized java.util.Optional<ProcessHandle> early() {
        return early == null ? java.util.Optional.empty() : java.util.Optional.of(early.process.toHandle());
    }

    /** Kills the early worker if no run took it. */
    static synchronized void discardEarly() {
        if (early != null) {
            early.kill();
            early = null;
            earlyOptions = null;
        }
    }

    private static WorkerProcess spawn(WorkerOptions options) throws IOException {
        List<String> command = options.command();
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(options.environment());
        WorkerProcess worker = new WorkerProcess(pb.start());
        if (System.getenv("GRADCHECK_DEBUG") != null) {
            System.err.println("gradcheck: started a " + options.engine().specName() + " worker, pid " + worker.process.pid()
                    + ": " + String.join(" ", command));
        }
        return worker;
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    void send(String line) throws IOException {
        requests.write(line + "\n");
        requests.flush();
    }

    /** The next reply, or why there is none: the worker exited, or {@code timeoutMillis} passed. */
    Outcome next(long timeoutMillis) throws InterruptedException {
        String reply = replies.poll(timeoutMillis, TimeUnit.MILLISECONDS);
        if (reply == null) {
            return new Outcome(Outcome.Kind.TIMED_OUT, null);
        }
        if (reply.equals(GONE)) {
            replies.add(GONE); // later calls see it too
            return new Outcome(Outcome.Kind.EXITED, null);
        }
        return new Outcome(Outcome.Kind.REPLY, reply);
    }

    /** Waits for the exit status of a worker whose stdout closed, and for the last of its stderr. */
    int exitStatus() throws InterruptedException {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            killTree(process);
        }
        stderrReader.join(2000);
        return process.waitFor();
    }

    List<String> tail() {
        return tail.lines();
    }

    /**
     * A check is about to be sent: forgets what was printed so far, so its crash report and its log hold only what
     * the check printed.
     */
    void beginCheck() {
        tail.clear();
        printed.clear();
    }

    /**
     * What the worker printed since {@link #beginCheck}. Taken after the check's reply, it holds the lines the
     * worker wrote to stdout before the reply (one pipe keeps their order) and what reached stderr by then, capped
     * as {@link CappedLines} says (the first and last kept, the count dropped said).
     */
    List<PrintedLine> takePrinted() {
        synchronized (printed) {
            List<PrintedLine> lines = printed.lines(n -> new PrintedLine(CappedLines.droppedLine(n), true));
            printed.clear();
            return lines;
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Closing stdin ends the request loop; a worker that does not go in time is killed. */
    void close() {
        try {
            requests.close();
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                killTree(process);
            }
        } catch (IOException e) {
            killTree(process);
        } catch (InterruptedException e) {
            killTree(process);
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Ends every worker now. For Ctrl-C: a terminal signals the workers too, but a front end stopped alone (kill
     * -INT, a CI runner's timeout) would leave them behind, busy with a check nobody waits for.
     */
    public static void killAll() {
        LIVE.forEach(WorkerProcess::killTree);
    }

    void kill() {
        killTree(process);
    }

    /**
     * The worker and what it started: an operator's own processes (a plugin's helper, a shell it ran) outlived a
     * worker killed for its timeout, reparented to init and still running. Its descendants are found before it dies
     * (once it is gone, they are no longer its) and ended first, so that a parent is there to reap them.
     */
    private static void killTree(Process worker) {
        worker.descendants().forEach(ProcessHandle::destroyForcibly);
        worker.destroyForcibly();
    }

    private void readStdout(InputStream stdout) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(stdout, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String payload = WorkerProtocol.unframe(line);
                if (payload != null) {
                    noise(line.substring(0, line.indexOf(WorkerProtocol.FRAME)));
                    replies.add(payload);
                } else {
                    noise(line);
                }
            }
        } catch (IOException e) {
            tail.add("(reading the worker's output failed: " + e.getMessage() + ")");
        } finally {
            replies.add(GONE);
        }
    }

    private void readLines(InputStream stream) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                noise(line);
            }
        } catch (IOException e) {
            tail.add("(reading the worker's stderr failed: " + e.getMessage() + ")");
        }
    }

    /**
     * A line the worker printed that is not a reply: ND4J's logs (marked as Java's), native diagnostics, a JVM's
     * crash banner. It is kept for the check and for a crash report, and shown only where the user asked.
     */
    private void noise(String line) {
        boolean java = !line.isEmpty() && line.charAt(0) == WorkerProtocol.JAVA_LINE;
        String text = java ? line.substring(1) : line;
        if (tail.add(text)) {
            printed.add(new PrintedLine(CappedLines.cut(text.stripTrailing()), java));
            EngineOutput.show(text);
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }
}
