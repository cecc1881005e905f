package dev.gradcheck.run;


import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.EnginePool;
import dev.gradcheck.backend.WorkerOptions;

/**
 * What a command that runs checks gets from where it runs: the engines, and how an interruption reaches the run.
 * On the command line ({@link #process}) each run opens its own pool and Ctrl-C ends the process; in the shell
 * (the shell's WarmEngines) runs share its warm worker and Ctrl-C ends the run, not the shell.
 */
public interface RunHost {

    /** The engines for this run; closing the pool returned ends what was started for this run alone. */
    EnginePool pool(RunConfiguration config);

    /**
     * Calls {@code interrupt} when the user interrupts the run (Ctrl-C, SIGTERM, SIGHUP), until the returned handle
     * is closed.
     */
    Watch onInterrupt(Runnable interrupt);

    /** The exit code of a run that was interrupted. */
    int interruptedExitCode();

    /**
     * Runs {@code config} on this host's engines, the user's interruption ending the run (the outcome then says
     * so), for commands that want the results rather than a report.
     */
    default RunOutcome run(RunConfiguration config) throws InterruptedException {
        try (EnginePool pool = pool(config)) {
            RunSession session = new RunSession(config, pool);
            try (Watch watch = onInterrupt(session::interrupt)) {
                return session.run();
            }
        }
    }

    /** Stops watching for interruptions. */
    interface Watch extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * One process, one run: a pool opened as the configuration says (worker JVMs from {@code workers}, or this
     * JVM's engine from {@code inProcess}); an interruption is a signal that ends the JVM, heard in a shutdown hook
     * which writes the report of the checks that finished.
     */
    static RunHost process(BackendFactory inProcess, WorkerOptions workers) {
        return new RunHost() {
            @Override
            public EnginePool pool(RunConfiguration config) {
                return config.openPool(inProcess, workers);
            }

            @Override
            public Watch onInterrupt(Runnable interrupt) {
                Thread hook = new Thread(interrupt, "gradcheck-interrupt");
                Signals.watch(); // so that the report written in the hook knows which signal ends the JVM
                try {
                    Runtime.getRuntime().addShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down already (a signal came while the run was being readied): the run is
                    // interrupted before it starts, as the hook would have
                    interrupt.run();
                    return () -> { };
                }
                return () -> {
                    try {
                        Runtime.getRuntime().removeShutdownHook(hook);
                    } catch (IllegalStateException e) {
                        // already shutting down: the hook writes the report
                    }
                };
            }

            @Override
            public int interruptedExitCode() {
                return Signals.exitCode(); // the report was written then; the JVM is on its way out
            }
        };
    }
}
