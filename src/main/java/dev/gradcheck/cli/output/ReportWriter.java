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
     * line on stderr saying why.
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
            Path parent = (existing == null ? output.toAbsolutePath() : output.toRealPath()).getParent();
            Files.createDirectories(parent);
            return Files.isWritable(parent) ? null : "permission denied: " + parent;
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
    void begin(List<PlannedCheck> planned) {
        if (format.streams() && output == null) {
            live = new LiveTable(planned, context(false), console.out());
        }
    }

    /** A check finished: the live table writes its row when every row before it is written. */
    void finished(int index, CheckResult result) {
        if (live != null) {
            live.finished(index, result);
        }
    }

    /**
     * @param interrupted the run was cut short: the report says so
     * @param run         when and where the run was, its shard, each check's origin, fail-fast's stop
     * @return false when the report could not be written to {@code --output} (the reason is on stderr); a failed
     *         write to stdout is the entry point's to find and say ({@code Main.exitAfterWriting})
     */
    public boolean write(List<CheckResult> results, Summary summary, boolean interrupted, RunDetails run) {
        ReportContext ctx = context(interrupted).with(run);
        if (live != null) {
            live.end(results, summary, ctx);
            return true;
        }
        return emit(w -> format.renderer().render(results, summary, ctx, w), SummaryLine.of(summary, ctx));
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
            BasicFileAttributes existing = attributes(output);
            if (existing != null && existing.isDirectory()) {
                throw new IOException("is a directory");
            }
            if (existing != null && !existing.isRegularFile()) {
                writeInPlace(body);
            } else {
                replace(existing == null ? output.toAbsolutePath() : output.toRealPath(), body);
            }
            console.err().println(summaryLine + " -> " + output);
            return true;
        } catch (IOException e) {
            console.err().println("gradcheck: cannot write the report to " + output + ": " + reason(e));
            return false;
        }
    }

    private ReportContext context(boolean interrupted) {
        return new ReportContext(color, VersionProvider.version(), quiet, interrupted, RunDetails.NONE, columns);
    }

    /** A device or FIFO: opened for writing as it is, as a shell's {@code >} would, and never replaced. */
    private void writeInPlace(Body body) throws IOException {
        try (Writer w = new OutputStreamWriter(Files.newOutputStream(output, StandardOpenOption.WRITE),
                StandardCharsets.UTF_8)) {
            body.writeTo(w);
        }
    }

    /** A regular file (or none yet): written whole beside {@code target}, then moved over it in one step. */
    private void replace(Path target, Body body) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), ".gradcheck-", ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                body.writeTo(w);
            }
            keepPermissions(target, tmp);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp); // after a failed write (a full disk): no half report left behind
        }
    }

    /** The replaced file's permissions, or rw-r--r-- for a new one (a temporary file starts private). */
    private static void keepPermissions(Path target, Path tmp) {
        try {
            Set<PosixFilePermission> permissions = Files.exists(target) ? Files.getPosixFilePermissions(target)
                    : NEW_FILE;
            Files.setPosixFilePermissions(tmp, permissions);
        } catch (IOException | UnsupportedOperationException e) {
            // not a POSIX file system, or not ours to read: the report is still written
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
