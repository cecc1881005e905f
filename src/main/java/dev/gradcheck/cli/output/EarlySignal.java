package dev.gradcheck.cli.output;

import dev.gradcheck.cli.options.ColorMode;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.cli.term.Terminal;
import dev.gradcheck.report.ReportFormat;
import dev.gradcheck.report.RunDetails;
import dev.gradcheck.result.Summary;
import dev.gradcheck.run.Signals;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;

/**
 * A signal before {@code check}'s arguments are parsed (the JVM's first half second): a report at {@code --output}
 * with no checks, marked interrupted, with the signal's exit code, as a signal a moment later writes (CI then finds
 * a report saying what happened, rather than none). Added first thing in {@code main}, beside
 * {@link StaleReport#removeEarly}; the command hands over to its own hook once it has one ({@link #handOver}). The
 * format is the one the command line names (the project file is not read yet), else the table.
 */
public final class EarlySignal {

    private static volatile boolean handedOver;
    private static Thread hook;

    private EarlySignal() {}

    /** Watches for a signal until {@link #handOver}, when the command line is a check that writes to a file. */
    public static synchronized void watch(String[] args) {
        Path output = StaleReport.outputOf(args);
        if (output == null || hook != null) {
            return;
        }
        ReportFormat format = formatOf(args);
        Signals.watch();
        hook = new Thread(() -> write(output, format), "gradcheck-early-signal");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The command's own hook hears signals from now on. */
    public static synchronized void handOver() {
        handedOver = true;
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down already: the hook sees handedOver and leaves the report to the command's
            }
            hook = null;
        }
    }

    private static void write(Path output, ReportFormat format) {
        if (handedOver || Signals.exitCalledWithoutSignal()) {
            return;
        }
        PrintWriter err = new PrintWriter(System.err, true);
        Console console = new Console(new PrintWriter(Writer.nullWriter()), err);
        ReportWriter writer = new ReportWriter(console, format, output, ColorMode.NEVER, false, Terminal.none());
        if (writer.prepare()) {
            writer.write(List.of(), Summary.of(List.of(), 0, Signals.exitCode()), true, RunDetails.NONE);
            err.println("gradcheck: interrupted by " + Signals.name() + " before the command line was read;"
                    + " wrote an interrupted report with no checks to " + output);
        }
    }

    /** The format {@code --format} names, or the table (also for a name picocli will refuse). */
    static ReportFormat formatOf(String[] args) {
        String name = StaleReport.valueOf(args, "--format", null);
        try {
            return name == null ? ReportFormat.TABLE : ReportFormat.parse(name);
        } catch (IllegalArgumentException e) {
            return ReportFormat.TABLE;
        }
    }
}
