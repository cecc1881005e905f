package dev.gradcheck.cli.term;

import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.run.PlannedCheck;
import dev.gradcheck.run.RunListener;
import dev.gradcheck.run.RunOutcome;
import dev.gradcheck.spec.OpSpec;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The status line under a live run on a terminal: checks done of the total, the failures so far (gradient
 * mismatches and unexpected passes; errors, crashes, time-outs and invalid specs counted apart), the time since the
 * run started and an estimate of the time left, and the check under way, e.g.
 * {@code 41/302 checks, 1 failed, 12 s elapsed, about 1 min 05 s left: softmax-rows}. Redrawn as checks start and finish
 * and once a second for the clock; erased when the run ends, so the finished screen holds only the report.
 *
 * <p>The estimate is the time per check since the first check finished (the first carries a worker's start-up,
 * seconds that the others do not cost) times the checks left; it waits for {@value #ESTIMATE_AFTER} checks.
 */
public final class ProgressLine implements RunListener {

    /** Checks that must have finished before an estimate is shown. */
    static final int ESTIMATE_AFTER = 3;

    private final Screen screen;
    private final LongSupplier nanos;
    private final ScheduledExecutorService clock;
    private long startNanos;
    private long firstCheckNanos = -1;
    private long firstFinishedNanos = -1;
    private int total;
    private int done;
    private int dispatchedDone;
    private int failed;
    private int errors;
    private String current = "";

    public ProgressLine(Screen screen) {
        this(screen, System::nanoTime, true);
    }

    /** @param ticking redraw once a second (off in tests, which drive the clock themselves) */
    public ProgressLine(Screen screen, LongSupplier nanos, boolean ticking) {
        this.screen = screen;
        this.nanos = nanos;
        this.clock = ticking ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gradcheck-status-line");
            t.setDaemon(true);
            return t;
        }) : null;
    }

    @Override
    public synchronized void runStarted(List<PlannedCheck> checks) {
        startNanos = nanos.getAsLong();
        total = checks.size();
        draw();
        if (clock != null) {
            clock.scheduleAtFixedRate(this::draw, 1, 1, TimeUnit.SECONDS);
        }
    }

    @Override
    public synchronized void checkStarted(int index, OpSpec spec, Engine engine) {
        if (firstCheckNanos < 0) {
            firstCheckNanos = nanos.getAsLong();
        }
        current = spec.name() + (engine == Engine.DEFAULT ? "" : " (" + engine.specName() + ")");
        draw();
    }

    @Override
    public synchronized void checkFinished(int index, CheckResult result) {
        done++;
        if (firstCheckNanos >= 0) { // a check that ran, not one known before the run (invalid, skipped)
            dispatchedDone++;
            if (firstFinishedNanos < 0) {
                firstFinishedNanos = nanos.getAsLong();
            }
        }
        switch (ExitCode.of(result.status())) {
            case MISMATCH -> failed++;
            case USAGE, OP_ERROR -> errors++;
            default -> { }
        }
        draw();
    }

    @Override
    public void runFinished(RunOutcome outcome) {
        stop();
    }

    @Override
    public void runInterrupted(RunOutcome outcome) {
        stop();
    }

    private void stop() {
        if (clock != null) {
            clock.shutdownNow();
        }
        screen.endStatus();
    }

    synchronized void draw() {
        screen.status(text());
    }

    /** The line as it reads now. */
    public synchronized String text() {
        long now = nanos.getAsLong();
        StringBuilder sb = new StringBuilder();
        sb.append(done).append('/').append(total).append(total == 1 ? " check" : " checks");
        sb.append(", ").append(failed).append(" failed");
        if (errors > 0) {
            sb.append(", ").append(errors).append(errors == 1 ? " error" : " errors");
        }
        sb.append(", ").append(duration((now - startNanos) / 1e9)).append(" elapsed");
        int left = total - done;
        if (left > 0 && dispatchedDone >= ESTIMATE_AFTER) {
            double perCheck = (now - firstFinishedNanos) / 1e9 / (dispatchedDone - 1);
            sb.append(", about ").append(duration(perCheck * left)).append(" left");
        } else if (left > 0) {
            sb.append(", estimating the time left");
        }
        if (!current.isEmpty() && left > 0) {
            sb.append(": ").append(current);
        }
        return sb.toString();
    }

    /** {@code 7 s}, {@code 1 min 05 s}, {@code 1 h 02 min}. */
    static String duration(double seconds) {
        long s = Math.round(Math.max(0, seconds));
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min", s / 3600, (s / 60) % 60);
    }
}
