package dev.gradcheck.backend;

import dev.gradcheck.result.Engine;
import dev.gradcheck.spec.CheckOptions;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.OpSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A small {@code check} in the front end's own JVM, with the launcher standing by: a second JVM for a worker costs
 * more than the checks of a small run (docs/benchmarks.md, "Where a cold run's seconds go"). bin/gradcheck offers it
 * by naming a private directory ({@value #OFFER_PROPERTY}); the front end holds its report back until the run is
 * over and takes the offer only for a run that is small and needs nothing a worker alone gives. Taking it leaves a
 * mark in the directory, so that if this JVM then dies (a native crash in an op, the kernel's OOM killer) or gives
 * up ({@link #rerunInWorkers}), the launcher runs the same command again with workers: the held report is lost
 * with the JVM, so nothing is printed twice, and each spec gets a worker's isolation.
 */
public final class SharedJvm {

    /** The launcher's offer: the directory where a taken offer is marked. */
    static final String OFFER_PROPERTY = "gradcheck.onejvm.dir";
    /**
     * The file in that directory saying where the run stands, which bin/gradcheck reads when the JVM has ended:
     * {@code held} (the report is held and no check has run: a crash there, at the JVM's start or ND4J's, has
     * printed nothing), {@code checking} (the offer taken), {@code declined} (workers, the report let out).
     */
    static final String MARK = "state";
    /** The exit code that asks the launcher for the run again in workers (bin/gradcheck knows it). */
    public static final int RERUN_IN_WORKERS = 75;
    /**
     * The most checks a run in one JVM may hold: a crash late in a long run would cost the whole run twice, and a
     * long run's report would be held back for long; above it the run goes to workers at once.
     */
    static final int MOST_CHECKS = 64;
    /**
     * The most input elements the run's specs may hold together: a small run's checks take seconds at most (a
     * full check's cost grows with inputs times outputs), so a crash costs little twice and the report is not held
     * back for long.
     */
    static final long MOST_ELEMENTS = 1 << 16;

    private static volatile Runnable onDecline = () -> { };
    private static volatile boolean taken;
    /** How this JVM ends for a rerun: at once, no hook run (tests see the code instead). */
    static volatile java.util.function.IntConsumer halt = code -> Runtime.getRuntime().halt(code);

    private SharedJvm() {}

    /** Whether the launcher offered one JVM for this run (it then stands by to run it again). */
    public static boolean offered() {
        return System.getProperty(OFFER_PROPERTY) != null;
    }

    /**
     * @param release lets the held report out; run when the offer is declined (the run then streams its report as
     *                a worker run does)
     */
    public static void holding(Runnable release) {
        onDecline = release;
        mark("held");
    }

    /** Workers after all ({@code --in-process} is no offer taken either): the report is let out now. */
    public static void decline() {
        mark("declined");
        onDecline.run();
    }

    /**
     * Takes the offer for a run of these specs if it is small and asks for nothing only a worker gives; marks it
     * for the launcher. Otherwise the report is let out now and the run goes to workers.
     *
     * @param engines  the engines the command line chose ({@code --backend}), or null for each spec's own
     * @param needsWorker the command line asks for what only workers give (more than one job, a memory limit,
     *                    plugins, options for the workers' JVMs)
     * @return whether this JVM runs the checks
     */
    public static boolean take(List<LoadedSpec> specs, List<Engine> engines, boolean needsWorker) {
        if (!offered() || needsWorker || !small(specs, engines) || !mark("checking")) {
            decline(); // without the mark there is no rerun after a crash: workers
            return false;
        }
        taken = true;
        return true;
    }

    /** Says where the run stands, for the launcher; false when it cannot (no offer, an unwritable directory). */
    private static boolean mark(String state) {
        String dir = System.getProperty(OFFER_PROPERTY);
        if (dir == null) {
            return false;
        }
        try {
            Files.writeString(Path.of(dir, MARK), state);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Back to no offer taken, nothing held: for tests, which take offers in one JVM. */
    static void forget() {
        taken = false;
        onDecline = () -> { };
    }

    /**
     * How many of a run's checks this JVM runs side by side once it took the offer: one per processor, at most 8 (as
     * one check's threads, {@link CheckOptions#defaultThreads}), at most one per check. A small run's checks are
     * mostly Java code that the JIT has not compiled yet; one lane left the other processor to the compiler, and
     * idle for a fifth of the run (the 48-spec suite: 1.39 s on one lane, 1.27 s on two, docs/benchmarks.md).
     * Each check keeps its own threads, which start only for a check whose evaluations run long.
     */
    public static int lanes(int checks) {
        return Math.max(1, Math.min(CheckOptions.defaultThreads(1), checks));
    }

    /** Whether this JVM took the offer: a check that cannot be stopped here then hands the run to workers. */
    public static boolean taken() {
        return taken;
    }

    /**
     * Ends this JVM at once, its report unwritten, so that the launcher runs the command again in workers: a check
     * that went on past its time limit and does not stop (a thread cannot be killed; a worker can).
     */
    public static void rerunInWorkers(String why) {
        System.err.println("gradcheck: " + why + "; running the specs again, each in a worker JVM");
        System.err.flush();
        halt.accept(RERUN_IN_WORKERS);
    }

    /**
     * At most {@link #MOST_CHECKS} specs holding at most {@link #MOST_ELEMENTS} input elements, none a saved
     * network (its size is in its file), each on the CPU alone (ND4J holds one engine per JVM).
     */
    static boolean small(List<LoadedSpec> specs, List<Engine> engines) {
        List<OpSpec> valid = specs.stream().map(LoadedSpec::spec).filter(java.util.Objects::nonNull).toList();
        if (specs.size() > MOST_CHECKS || valid.stream().anyMatch(s -> s.network() != null)
                || valid.stream().flatMap(s -> s.inputs().stream()).mapToLong(InputSpec::length).sum() > MOST_ELEMENTS) {
            return false;
        }
        if (engines != null) {
            return engines.equals(List.of(Engine.CPU));
        }
        return valid.stream().allMatch(s -> s.backends().equals(List.of(Engine.CPU)));
    }
}
