package dev.gradcheck.cli.output;

import dev.gradcheck.cli.options.ColorMode;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.cli.term.LiveTable;
import dev.gradcheck.cli.term.Terminal;
import dev.gradcheck.report.ReportContext;
import dev.gradcheck.report.ReportFormat;
import dev.gradcheck.report.RunDetails;
import dev.gradcheck.report.SummaryLine;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Summary;
import dev.gradcheck.run.PlannedCheck;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;

/**
 * Renders a report to stdout or to a file ({@code --output}). A format that streams (the table) is written live on
 * stdout, row by row as checks finish ({@link LiveTable}); other formats, and any report to a file, are written
 * whole at the end. A
 * regular file is written beside its target and
 * moved into place, so a reader never sees half a report (through a symbolic link: beside the file it points to,
 * keeping the link). Anything else that exists (a device such as /dev/null, a FIFO) is written in place, never
 * replaced by a regular file; /dev/stdout means the report stream itself. A report that cannot be written in full
 * (a full disk, /dev/full) is an error, said on stderr.
 */
public final class ReportWriter {

    /** Paths that mean stdout; under bin/gradcheck the JVM's own fd 1 is stderr, so they are not opened by path. */
    private static final Set<String> STDOUT = Set.of("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1");
    /** A new report file's permissions: readable by all, as a shell's {@code >} with the usual umask makes it. */
    private static final Set<PosixFilePermission> NEW_FILE = PosixFilePermissions.fromString("rw-r--r--");

    private final Console console;
    private final ReportFormat format;
    private final Path output;
    private final boolean color;
    private final boolean quiet;
    private final int columns;
    private LiveTable live;
    /** The report file {@link #prepare} removed (the target, links followed), with its permissions; or null. */
    private Path removed;
    private Set<PosixFilePermission> removedPermissions;
    /** A report was written (at the end, or by a signal's hook): no second one, and no rows after it. */
    private boolean written;
    private boolean junitFileLine;

    /**
     * @param color    --color: whether the table is coloured, given where it goes (stdout: the terminal, or not)
     * @param terminal whether stdout is a terminal, how wide, and the environment colour reads
     */
    public ReportWriter(Console console, ReportFormat format, Path output, ColorMode color, boolean quiet,
                        Terminal terminal) {
        this.console = console;
        this.format = format;
        this.output = output == null || STDOUT.contains(output.toString()) ? null : output;
        boolean toTerminal = this.output == null && terminal.reportTerminal();
        this.color = color.colors(toTerminal, terminal.env());
        this.quiet = quiet;
        this.columns = this.output == null ? terminal.tableColumns() : 0; // a file gets the full width
    }

    /**
     * Readies {@code --output} before the work whose report it is, so that a run's results are not lost at its end
     * to a path that cannot be written: missing parent directories are created (as for a CI artifact under
     * build/reports/); a directory, a path through a regular file, or a place not writable is refused now, with one
     * line on stderr saying why. A regular file already there (an earlier run's report) is removed now, so that a
     * run that ends without writing its report (SIGKILL) leaves no stale report for CI to publish as its own; the
     * new report keeps its permissions and the link that led to it.
     *
     * @return whether the report can be written there (or goes to stdout)
     */
    public boolean prepare() {
        String problem = problem();
        if (problem != null) {
            console.err().println("gradcheck: cannot write the report to " + output + ": " + problem);
        }
        return problem == null;
    }

    /** Why the report cannot be written to {@code --output}, or null; makes missing directories. */
    private String problem() {
        if (output == null) {
            return null;
        }
        try {
            BasicFileAttributes existing = attributes(output);
            if (existing != null && existing.isDirectory()) {
                return "is a directory";
            }
            if (existing != null && !existing.isRegularFile()) { // a device or FIFO, written in place
                return Files.isWritable(output) ? null : "permission denied: " + output;
            }
            Path target = existing == null ? output.toAbsolutePath() : output.toRealPath();
            Path parent = target.getParent();
            Files.createDirectories(parent);
            if (!Files.isWritable(parent)) {
                return "permission denied: " + parent;
            }
            if (existing != null) {
                removedPermissions = permissions(target);
                Files.delete(target);
                removed = target;
            } else if (StaleReport.removedAt(target) != null) { // removed as the JVM started: its permissions stay
                Set<PosixFilePermission> early = StaleReport.removedAt(target);
                removedPermissions = early.isEmpty() ? NEW_FILE : early;
                removed = target;
            }
            return null;
        } catch (java.nio.file.FileAlreadyExistsException e) {
            return "not a directory: " + e.getFile();
        } catch (IOException e) {
            return reason(e);
        }
    }

    /**
     * The run's rows are known: a report on stdout in a format that streams starts now, laid out for them (the
     * table is the one that streams, and LiveTable writes it).
     */
    synchronized void begin(List<PlannedCheck> planned) {
        if (format.streams() && output == null && !written) {
            live = new LiveTable(planned, context(false), console.out());
        }
    }

    /** A check finished: the live table writes its row when every row before it is written. */
    synchronized void finished(int index, CheckResult result) {
        if (live != null && !written) {
            live.finished(index, result);
        }
    }

    /**
     * @param interrupted the run was cut short: the report says so
     * @param run         when and where the run was, its shard, each check's origin, fail-fast's stop
     * @return false when the report could not be written to {@code --output} (the reason is on stderr); a failed
     *         write to stdout is the entry point's to find and say ({@code Main.exitAfterWriting}); true, writing
     *         nothing, when a report was written already (by a signal's hook while the run was being readied)
     */
    public synchronized boolean write(List<CheckResult> results, Summary summary, boolean interrupted,
                                      RunDetails run) {
        if (written) {
            return true;
        }
        written = true;
        ReportContext ctx = context(interrupted).with(run);
        if (live != null) {
            live.end(results, summary, ctx);
            return true;
        }
        return emit(w -> format.renderer().render(results, summary, ctx, w), SummaryLine.of(summary, ctx));
    }

    /** Whether a report was written: whoever comes second writes nothing and says nothing. */
    public synchronized boolean written() {
        return written;
    }

    /** Text that is not a report ({@code --collect-only}'s listing), where a report would go. */
    public boolean writeText(String text, String summaryLine) {
        return emit(w -> w.write(text), summaryLine);
    }

    private interface Body {
        void writeTo(Writer out) throws IOException;
    }

    /** @param summaryLine said on stderr when the body went to a file */
    private boolean emit(Body body, String summaryLine) {
        try {
            if (output == null) {
                body.writeTo(console.out());
                console.out().flush();
                return true;
            }
            if (removed != null) { // the earlier report, removed by prepare (a link to it now leads nowhere)
                replace(removed, body, removedPermissions);
                console.err().println(summaryLine + " -> " + output);
                return true;
            }
            BasicFileAttributes existing = attributes(output);
            if (existing != null && existing.isDirectory()) {
                throw new IOException("is a directory");
            }
            if (existing != null && !existing.isRegularFile()) {
                writeInPlace(body);
            } else {
                Path target = existing == null ? output.toAbsolutePath() : output.toRealPath();
                replace(target, body, permissions(target));
            }
            console.err().println(summaryLine + " -> " + output);
            return true;
        } catch (IOException e) {
            console.err().println("gradcheck: cannot write the report to " + output + ": " + reason(e));
            return false;
        }
    }

    /**
     * JUnit XML's test cases carry {@code file} and {@code line} ({@code --junit-file-line}); by default they do not,
     * and the report is valid under junit-10.xsd.
     *
     * @return this writer
     */
    public ReportWriter junitFileLine(boolean fileLine) {
        this.junitFileLine = fileLine;
        return this;
    }

    private ReportContext context(boolean interrupted) {
        ReportContext ctx = new ReportContext(color, VersionProvider.version(), quiet, interrupted, RunDetails.NONE,
                columns).withJUnitFileLine(junitFileLine);
        // an HTML page in a file links to the specs from where it lies
        return output == null ? ctx : ctx.withLinkBase(ReportContext.linkBaseFor(output.toAbsolutePath().getParent()));
    }

    /** A device or FIFO: opened for writing as it is, as a shell's {@code >} would, and never replaced. */
    private void writeInPlace(Body body) throws IOException {
        try (Writer w = new OutputStreamWriter(Files.newOutputStream(output, StandardOpenOption.WRITE),
                StandardCharsets.UTF_8)) {
            body.writeTo(w);
        }
    }

    /** A regular file (or none yet): written whole beside {@code target}, then moved over it in one step. */
    private void replace(Path target, Body body, Set<PosixFilePermission> permissions) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), ".gradcheck-", ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                body.writeTo(w);
            }
            setPermissions(tmp, permissions);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp); // after a failed write (a full disk): no half report left behind
        }
    }

    /** The permissions a report replacing {@code target} gets: its own, or rw-r--r-- for a new one; null unknown. */
    private static Set<PosixFilePermission> permissions(Path target) {
        try {
            return Files.exists(target) ? Files.getPosixFilePermissions(target) : NEW_FILE;
        } catch (IOException | UnsupportedOperationException e) {
            return null; // not a POSIX file system, or not ours to read
        }
    }

    /** A temporary file starts private: it gets the permissions of the report it becomes. */
    private static void setPermissions(Path tmp, Set<PosixFilePermission> permissions) {
        try {
            if (permissions != null) {
                Files.setPosixFilePermissions(tmp, permissions);
            }
        } catch (IOException | UnsupportedOperationException e) {
            // not a POSIX file system: the report is still written
        }
    }

    /** The target's attributes, following links; null when there is nothing there yet. */
    private static BasicFileAttributes attributes(Path path) throws IOException {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            if (Files.isSymbolicLink(path)) {
                throw new IOException("a symbolic link to " + Files.readSymbolicLink(path) + ", which does not exist");
            }
            return null;
        }
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException n) {
            return "no such file or directory: " + n.getFile();
        }
        if (e instanceof java.nio.file.AccessDeniedException a) {
            return "permission denied: " + a.getFile();
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null && f.getFile() != null) {
            return f.getReason() + ": " + f.getFile(); // its message would repeat the path before the reason
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
