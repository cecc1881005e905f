package dev.gradcheck.backend;

import dev.gradcheck.check.CheckResult;
import dev.gradcheck.check.Status;
import dev.gradcheck.check.Unfinished;
import dev.gradcheck.spec.OpSpec;
import java.io.IOException;

/**
 * Runs checks in a worker JVM, one at a time. A worker that dies ends its check as {@link Status#CRASHED} (with
 * how it died and its last output) and the next check starts a fresh one; a check over its time limit has its
 * worker killed and ends as {@link Status#TIMEOUT}.
 */
public final class WorkerBackend implements Backend {

    /** JVM start and ND4J initialisation take a few seconds; a worker silent for this long is not coming. */
    private static final long STARTUP_MILLIS = 120_000;

    private final WorkerOptions options;
    private final TimeLimits limits;
    private WorkerProcess worker;
    private long nextId = 1;
    /** Set when a worker could not even start: every later check would fail the same way, slowly. */
    private String startFailure;

    public WorkerBackend(WorkerOptions options, TimeLimits limits) {
        this.options = options;
        this.limits = limits;
    }

    @Override
    public String name() {
        return options.backend();
    }

    @Override
    public CheckResult run(OpSpec spec) {
        long start = System.nanoTime();
        try {
            if (startFailure == null && worker == null) {
                startFailure = startWorker();
            }
            if (startFailure != null) {
                return Unfinished.of(spec, name(), Status.CRASHED, startFailure, seconds(start));
            }
            worker.clearTail();
            long id = nextId++;
            worker.send(WorkerProtocol.encode(new WorkerProtocol.Request(id, spec.pos().file(),
                    spec.pos().toString())));
            TimeLimits.Limit limit = limits.of(spec);
            WorkerProcess.Outcome outcome = worker.next(limit.millis());
            switch (outcome.kind()) {
                case REPLY:
                    return WorkerProtocol.decode(outcome.payload(), WorkerProtocol.Reply.class).result();
                case TIMED_OUT:
                    worker.kill();
                    worker = null;
                    return Unfinished.of(spec, name(), Status.TIMEOUT, "timed out after "
                            + java.math.BigDecimal.valueOf(limit.seconds()).stripTrailingZeros().toPlainString() + " s (" + limit.source() + ")", seconds(start));
                default:
                    String crash = ExitDescription.of(worker.exitStatus(), worker.tail());
                    worker = null;
                    return Unfinished.of(spec, name(), Status.CRASHED, crash, seconds(start));
            }
        } catch (IOException e) { // the worker's stdin broke: it died between checks
            String crash = worker == null ? "worker unavailable: " + e.getMessage() : describeDeath();
            worker = null;
            return Unfinished.of(spec, name(), Status.CRASHED, crash, seconds(start));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            return Unfinished.of(spec, name(), Status.ERROR, "interrupted", seconds(start));
        }
    }

    /** @return null when the worker is up, else why it is not */
    private String startWorker() throws InterruptedException {
        try {
            worker = WorkerProcess.start(options);
        } catch (IOException e) {
            return "cannot start a " + name() + " worker: " + e.getMessage();
        }
        WorkerProcess.Outcome ready = worker.next(STARTUP_MILLIS);
        if (ready.kind() == WorkerProcess.Outcome.Kind.REPLY && ready.payload().equals(WorkerProtocol.READY)) {
            return null;
        }
        String why = ready.kind() == WorkerProcess.Outcome.Kind.TIMED_OUT
                ? "the " + name() + " worker did not start within " + STARTUP_MILLIS / 1000 + " s"
                : "the " + name() + " worker did not start; " + describeDeath();
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

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    @Override
    public void close() {
        if (worker != null) {
            worker.close();
            worker = null;
        }
    }
}
