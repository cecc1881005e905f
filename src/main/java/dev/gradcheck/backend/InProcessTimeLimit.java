package dev.gradcheck.backend;

import dev.gradcheck.check.Unfinished;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The time limit of checks in this JVM ({@code --in-process}), as a worker has one: each check runs on one checking
 * thread while the caller waits at most its limit ({@link TimeLimits}); past it the check ends as
 * {@link Status#TIMEOUT} with a worker's words and the run goes on. A thread cannot be killed as a worker JVM is, so
 * the checking thread is interrupted and the check stops at its next evaluation (check/'s evaluations end an
 * interrupted check); the next check starts on the same thread once that one has stopped, and its own clock starts
 * then, so one check's winding down never counts against the next.
 */
final class InProcessTimeLimit implements AutoCloseable {

    /** How long a check may go on past its limit before a run in the front end's JVM goes to workers. */
    private static long stuckSeconds() {
        return Long.getLong("gradcheck.onejvm.stuck.seconds", 10); // shorter in tests
    }

    private final ExecutorService checking = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "gradcheck-check");
        t.setDaemon(true); // a check stopped at its limit must not hold the JVM's exit
        return t;
    });
    /** The check on the checking thread now, for {@link #abort}; null between checks. */
    private volatile Future<CheckResult> inFlight;

    /** Runs {@code check} on the checking thread within the request's limit. */
    CheckResult run(CheckRequest request, String backend, Function<CheckRequest, CheckResult> check) {
        CountDownLatch started = new CountDownLatch(1);
        FutureTask<CheckResult> result = new FutureTask<>(() -> {
            started.countDown();
            return check.apply(request);
        });
        inFlight = result; // before it can start: an abort from then on stops it
        checking.execute(result);
        TimeLimits.Limit limit = request.limits().of(request.spec());
        long start = 0;
        try {
            awaitStart(started); // behind a check still winding down after its limit: not this check's time
            start = System.nanoTime();
            return result.get(limit.millis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            if (!result.cancel(true)) {
                return finished(result); // it finished as the limit passed
            }
            return Unfinished.of(request.spec(), backend, Status.TIMEOUT, limit.timedOut(), seconds(start));
        } catch (InterruptedException e) {
            result.cancel(true);
            Thread.currentThread().interrupt();
            return Unfinished.of(request.spec(), backend, Status.ERROR, "interrupted", seconds(start));
        } catch (CancellationException e) { // abort(): the run was interrupted, and drops this result
            return Unfinished.of(request.spec(), backend, Status.ERROR, "interrupted", seconds(start));
        } catch (ExecutionException e) {
            throw rethrown(e.getCause());
        } finally {
            inFlight = null;
        }
    }

    /**
     * Waits for the checking thread to start this check. In the front end's JVM with the launcher standing by
     * ({@link SharedJvm}), a check that has not stopped 10 s after its limit (a kernel that never
     * returns) hands the whole run to workers, whose JVMs can be killed; elsewhere ({@code --in-process}) the run
     * waits for it, as that option says.
     */
    private static void awaitStart(CountDownLatch started) throws InterruptedException {
        if (!SharedJvm.taken()) {
            started.await();
        } else if (!started.await(stuckSeconds(), TimeUnit.SECONDS)) {
            SharedJvm.rerunInWorkers("a check went on " + stuckSeconds() + " s past its time limit and could not be"
                    + " stopped in this JVM");
        }
    }

    /** Stops the check in flight (Ctrl-C): it ends at its next evaluation, and its caller returns at once. */
    void abort() {
        Future<CheckResult> now = inFlight;
        if (now != null) {
            now.cancel(true);
        }
    }

    private static CheckResult finished(Future<CheckResult> result) {
        try {
            return result.get();
        } catch (ExecutionException e) {
            throw rethrown(e.getCause());
        } catch (InterruptedException | CancellationException e) {
            throw new IllegalStateException("a finished check's result was lost", e);
        }
    }

    private static double seconds(long start) {
        return start == 0 ? 0 : (System.nanoTime() - start) / 1e9;
    }

    /** What the check threw, as the caller's own: a backend's run never throws for an operator's failure. */
    private static RuntimeException rethrown(Throwable cause) {
        if (cause instanceof Error error) {
            if (SharedJvm.taken()) { // out of memory in the JVM the front end shares
                SharedJvm.rerunInWorkers("a check failed with " + error + " in the front end's JVM");
            }
            throw error;
        }
        return cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
    }

    /** Stops the checking thread; a check still in flight is interrupted. */
    @Override
    public void close() {
        checking.shutdownNow();
    }
}
