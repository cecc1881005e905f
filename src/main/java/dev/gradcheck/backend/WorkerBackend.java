package dev.gradcheck.backend;

import dev.gradcheck.check.Unfinished;
import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.OpSpec;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs checks in a worker JVM, one at a time. A worker that dies ends its check as {@link Status#CRASHED} (with
 * how it died and its last output) and the next check starts a fresh one; a check over its time limit has its
 * worker killed and ends as {@link Status#TIMEOUT}.
 */
public final class WorkerBackend implements Backend {

    /** JVM start and ND4J initialisation take a few seconds; a worker silent for this long is not coming. */
    private static final long STARTUP_MILLIS = 120_000;

    private final WorkerOptions options;
    private WorkerProcess worker;
    /** Each file's text as last sent to the current worker, by file: sent again only when it changed. */
    private final Map<String, String> textsSent = new HashMap<>();
    /** Whether {@link #worker} said it is ready; a prestarted one may still be starting. */
    private boolean ready;
    private long nextId = 1;
    /** Set when a worker could not even start: every later check would fail the same way, slowly. */
    private String startFailure;

    /** A worker started when the first check comes, and again after it crashed or timed out. */
    public WorkerBackend(WorkerOptions options) {
        this.options = options;
    }

    @Override
    public Engine engine() {
        return options.engine();
    }

    @Override
    public CheckResult run(CheckRequest request) {
        long start = System.nanoTime();
        OpSpec spec = request.spec();
        Exchange x = exchange(request, WorkerProtocol.Request.Kind.CHECK);
        if (System.getenv("GRADCHECK_DEBUG") != null && x.reply() != null) {
            System.err.printf("gradcheck: %s: %.1f ms in the worker's check, %.1f ms round trip%n", spec.name(),
                    x.reply().result().seconds() * 1e3, (System.nanoTime() - start) / 1e6);
        }
        CheckResult result = x.reply() != null ? x.reply().result()
                : Unfinished.of(spec, engine().specName(), x.status(), x.message(), x.seconds());
        return PrintedOutput.attach(result, x.printed());
    }

    /**
     * The validation's result from the worker; crashed or timed out as for a check; libnd4j's own words for a
     * refusal added as for a check (on the problem's line), so that validate and check give the same reason.
     */
    @Override
    public CheckResult validate(CheckRequest request) {
        Exchange x = exchange(request, WorkerProtocol.Request.Kind.VALIDATE);
        CheckResult result = x.reply() != null ? x.reply().result()
                : Unfinished.of(request.spec(), engine().specName(), x.status(), x.message(), x.seconds());
        return PrintedOutput.attach(result, x.printed());
    }

    /** Null when the worker crashed or timed out taking it; the check's own result says how. */
    @Override
    public BackendSample sample(CheckRequest request) {
        Exchange x = exchange(request, WorkerProtocol.Request.Kind.SAMPLE);
        return x.reply() == null ? null : x.reply().sample();
    }

    /**
     * A reply, or the status and message of why there is none, and the seconds since the request was sent: a
     * check's time, like its time limit, starts when its worker is ready, not while one starts. {@code printed}: what
     * the worker printed meanwhile.
     */
    private record Exchange(WorkerProtocol.Reply reply, Status status, String message, double seconds,
                            List<PrintedLine> printed) {
        static Exchange failed(Status status, String message, long sentNanos, List<PrintedLine> printed) {
            return new Exchange(null, status, message, sentNanos == 0 ? 0 : (System.nanoTime() - sentNanos) / 1e9,
                    printed);
        }

        static Exchange failed(Status status, String message, long sentNanos) {
            return failed(status, message, sentNanos, List.of());
        }
    }

    /**
     * Starts a worker now if none is running, and waits until it is ready. A start that fails here is not held
     * against the checks: the next one tries again, and says why if it fails too.
     */
    @Override
    public synchronized void start() {
        if (worker != null && ready && !worker.isAlive()) {
            worker = null;
        }
        if (startFailure == null && (worker == null || !ready)) { // none, or a prestarted one still starting
            try {
                startWorker();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** One at a time: a check that comes while {@link #start} is under way waits for the worker it starts. */
    private synchronized Exchange exchange(CheckRequest request, WorkerProtocol.Request.Kind kind) {
        OpSpec spec = request.spec();
        long sent = 0;
        try {
            if (worker != null && ready && !worker.isAlive()) {
                worker = null; // it died between checks (killed from outside): not this spec's doing, start anew
            }
            if (startFailure == null && (worker == null || !ready)) {
                startFailure = startWorker();
            }
            if (startFailure != null) {
                return Exchange.failed(EngineSupport.of(engine()).whenWorkerCannotStart(), startFailure, 0);
            }
            worker.beginCheck();
            long id = nextId++;
            sent = System.nanoTime();
            worker.send(WorkerProtocol.encode(request(id, request, kind)));
            TimeLimits.Limit limit = request.limits().of(spec);
            WorkerProcess.Outcome outcome = worker.next(limit.millis());
            switch (outcome.kind()) {
                case REPLY:
                    WorkerProtocol.Reply reply = WorkerProtocol.decode(outcome.payload(), WorkerProtocol.Reply.class);
                    List<PrintedLine> printed = worker.takePrinted();
                    if (reply.retiring() != null) {
                        worker.close(); // it exits by itself; the next check gets a fresh one
                        worker = null;
                        reply = new WorkerProtocol.Reply(reply.id(), retired(reply.result(), reply.retiring()),
                                reply.sample(), reply.retiring());
                    }
                    return new Exchange(reply, null, null, 0, printed);
                case TIMED_OUT:
                    List<PrintedLine> beforeKill = worker.takePrinted();
                    worker.kill();
                    worker = null;
                    return Exchange.failed(Status.TIMEOUT, limit.timedOut(), sent, beforeKill);
                default:
                    String crash = ExitDescription.of(worker.exitStatus(), worker.tail());
                    List<PrintedLine> beforeDeath = worker.takePrinted();
                    worker = null;
                    return Exchange.failed(Status.CRASHED, crash, sent, beforeDeath);
            }
        } catch (IOException e) { // the worker's stdin broke: it died between checks
            String crash = worker == null ? "worker unavailable: " + e.getMessage() : describeDeath();
            worker = null;
            return Exchange.failed(Status.CRASHED, crash, sent);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            return Exchange.failed(Status.ERROR, "interrupted", sent);
        }
    }

    /**
     * The request for one check: its file's text goes with it the first time and whenever it changed since, so the
     * worker checks what the front end read (not the file as it may be now); otherwise the worker keeps it.
     */
    private WorkerProtocol.Request request(long id, CheckRequest request, WorkerProtocol.Request.Kind kind) {
        OpSpec spec = request.spec();
        String file = spec.pos().file();
        boolean kept = request.text() != null && request.text().equals(textsSent.get(file));
        if (request.text() != null) {
            textsSent.put(file, request.text());
        }
        return new WorkerProtocol.Request(id, file, spec.pos().toString(), kind, request.overrides(),
                request.jacobians(), kept ? null : request.text(), kept);
    }

    /** The check keeps its own status and error; the note says the worker JVM did not carry on after it. */
    private static CheckResult retired(CheckResult result, String error) {
        if (result == null) {
            return null;
        }
        return result.withMessage(result.message() + "\n(after this " + error
                + " the worker JVM was replaced by a fresh one)");
    }

    /** The worker JVM this backend checks in now, if one runs (tests watch it). */
    synchronized java.util.Optional<ProcessHandle> worker() {
        return worker == null ? java.util.Optional.empty() : java.util.Optional.of(worker.handle());
    }

    /** The worker JVM starts now; the first check waits for it to be ready. */
    @Override
    public synchronized void prestart() {
        if (worker == null && startFailure == null) {
            startFailure = launch();
        }
    }

    /** @return null when the process started, else why it did not */
    private String launch() {
        try {
            worker = WorkerProcess.start(options);
            ready = false;
            textsSent.clear(); // a new worker has been sent no text yet
            return null;
        } catch (IOException e) {
            return "cannot start a " + engine().specName() + " worker: " + e.getMessage();
        }
    }

    /** @return null when the worker is up (started now, or prestarted and now ready), else why it is not */
    private String startWorker() throws InterruptedException {
        if (worker == null) {
            String failed = launch();
            if (failed != null) {
                return failed;
            }
        }
        WorkerProcess.Outcome outcome = worker.next(STARTUP_MILLIS);
        if (outcome.kind() == WorkerProcess.Outcome.Kind.REPLY && outcome.payload().equals(WorkerProtocol.READY)) {
            ready = true;
            return null;
        }
        String why = outcome.kind() == WorkerProcess.Outcome.Kind.TIMED_OUT
                ? "the " + engine().specName() + " worker did not start within " + STARTUP_MILLIS / 1000 + " s"
                : "the " + engine().specName() + " worker did not start; " + describeDeath();
        worker.kill();
        worker = null;
        return why;
    }

    private String describeDeath() {
        try {
            return ExitDescription.of(worker.exitStatus(), worker.tail());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "worker crashed";
        }
    }

    /** A worker that never became ready (prestarted, then no check came) has nothing to finish: it is killed. */
    @Override
    public synchronized void close() {
        if (worker != null) {
            if (ready) {
                worker.close();
            } else {
                worker.kill();
            }
            worker = null;
        }
    }
}
