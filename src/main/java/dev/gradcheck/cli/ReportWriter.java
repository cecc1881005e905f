package dev.gradcheck.cli;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Summary;
import dev.gradcheck.report.ReportContext;
import dev.gradcheck.report.ReportFormat;
import dev.gradcheck.report.SummaryLine;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Renders a report to stdout or to a file. A file is written beside its target and moved into place, so a reader
 * never sees half a report.
 */
final class ReportWriter {

    private final Console console;
    private final ReportFormat format;
    private final Path output;
    private final boolean colorAllowed;
    private final boolean quiet;

    ReportWriter(Console console, ReportFormat format, Path output, boolean colorAllowed, boolean quiet) {
        this.console = console;
        this.format = format;
        this.output = output;
        this.colorAllowed = colorAllowed;
        this.quiet = quiet;
    }

    /**
     * @param interrupted the run was cut short: the report says so
     * @return false when the report could not be written (the reason is on stderr)
     */
    boolean write(List<CheckResult> results, Summary summary, boolean interrupted) {
        boolean color = colorAllowed && output == null && console.colorTerminal();
        ReportContext ctx = new ReportContext(color, VersionProvider.version(), quiet, interrupted);
        try {
            if (output == null) {
                format.renderer().render(results, summary, ctx, console.out());
                console.out().flush();
                return true;
            }
            Path target = output.toAbsolutePath();
            Path tmp = Files.createTempFile(target.getParent(), ".gradcheck-", ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                format.renderer().render(results, summary, ctx, w);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            console.err().println(SummaryLine.of(summary, interrupted) + " -> " + output);
            return true;
        } catch (IOException e) {
            console.err().println("gradcheck: cannot write the report to " + output + ": " + e.getMessage());
            return false;
        }
    }
}
