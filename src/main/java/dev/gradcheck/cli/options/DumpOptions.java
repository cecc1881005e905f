package dev.gradcheck.cli.options;

import dev.gradcheck.report.JacobianDump;
import dev.gradcheck.report.UndrawnBlocks;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.run.RunListener;
import dev.gradcheck.run.RunOutcome;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code --dump DIR} and {@code --dump-format}: the matrices of failing Jacobian blocks, written as checks finish
 * (so Ctrl-C keeps those already done), with a manifest at the end. Asking for a dump is what makes the run carry
 * matrices at all ({@link JacobianCapture#FAILING}); without it no check ships them.
 */
public final class DumpOptions {

    @Option(names = "--dump", paramLabel = "DIR",
            description = "Write the numerical and analytic Jacobians of every failing block to DIR (created if"
                    + " missing): one folder per check, one 2-D matrix per side (output elements x input elements),"
                    + " each entry's mark (agrees, mismatch, masked, kink), and DIR/manifest.json naming them.")
    Path dir;

    @Option(names = "--dump-format", paramLabel = "DUMP_FORMAT", defaultValue = "npy",
            converter = FormatConverter.class, completionCandidates = Names.class,
            description = "${COMPLETION-CANDIDATES}: NumPy .npy files (numpy.load) or CSV text (default:"
                    + " ${DEFAULT-VALUE}).")
    JacobianDump.Format format;

    /** What the run must carry for this dump. */
    public JacobianCapture capture() {
        return dir == null ? JacobianCapture.NONE : JacobianCapture.FAILING;
    }

    /** The listener that writes the dump, or null when none was asked for. */
    public Writer listener(PrintWriter err) {
        return dir == null ? null : new Writer(new JacobianDump(dir, format), dir, err);
    }

    /** Writes each finished check's blocks; a write that fails is said once, on stderr, and fails the run. */
    public static final class Writer implements RunListener {

        private final JacobianDump dump;
        private final Path dir;
        private final PrintWriter err;
        private boolean failed;
        private boolean done;

        Writer(JacobianDump dump, Path dir, PrintWriter err) {
            this.dump = dump;
            this.dir = dir;
            this.err = err;
        }

        @Override
        public synchronized void checkFinished(int index, CheckResult result) {
            if (failed) {
                return;
            }
            try {
                dump.write(result);
            } catch (IOException | RuntimeException e) {
                fail(e);
            }
        }

        @Override
        public void runFinished(RunOutcome outcome) {
            finish();
        }

        @Override
        public void runInterrupted(RunOutcome outcome) {
            finish();
        }

        private synchronized void finish() {
            if (done || failed) {
                return;
            }
            done = true;
            try {
                dump.writeManifest();
                err.println("gradcheck: dumped " + dump.blocksWritten() + " failing block"
                        + (dump.blocksWritten() == 1 ? "" : "s") + " to " + dir);
                if (dump.blocksNotWritten() > 0) {
                    err.println("gradcheck: " + dump.blocksNotWritten() + " failing block"
                            + (dump.blocksNotWritten() == 1 ? " has" : "s have") + " no matrices to dump ("
                            + UndrawnBlocks.OVER_BUDGET + "): listed in " + dir.resolve("manifest.json")
                            + " under not_written");
                }
            } catch (IOException | RuntimeException e) {
                fail(e);
            }
            err.flush();
        }

        private void fail(Exception e) {
            failed = true;
            err.println("gradcheck: --dump " + dir + ": cannot write: " + e.getMessage());
            err.flush();
        }

        /** Whether the dump could not be written: the run then exits 2 at least. */
        public synchronized boolean failed() {
            return failed;
        }
    }

    static final class FormatConverter implements CommandLine.ITypeConverter<JacobianDump.Format> {
        @Override
        public JacobianDump.Format convert(String value) {
            try {
                return JacobianDump.Format.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static final class Names implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(JacobianDump.Format.values()).map(JacobianDump.Format::extension)
                    .iterator();
        }
    }
}
