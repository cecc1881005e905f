package dev.gradcheck.cli;

import dev.gradcheck.cli.options.ColorOption;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.FormatConverter;
import dev.gradcheck.cli.options.ProjectOptions;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.cli.output.ReportMerge;
import dev.gradcheck.cli.output.ReportWriter;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.cli.term.Terminal;
import dev.gradcheck.report.ReportFormat;
import dev.gradcheck.run.Durations;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gradcheck merge REPORT...}: one report from the JSON reports of several shards (CI matrices). */
@Command(name = "merge", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, sortOptions = false,
        description = {
            "Merges the JSON reports of several runs (e.g. the shards of `check --shard K/N` in a CI matrix) into one"
                + " report, in any format, with one summary and the exit code the whole run would have had.",
            "Checks are ordered by spec location, as one run over the same paths orders them; each keeps the shard it"
                + " ran in. Reports of different schema versions, the same shard twice, or shards of different"
                + " totals are refused; a missing shard is reported and exits 2."},
        footer = {"%nExamples:",
            "  gradcheck merge shard-1.json shard-2.json shard-3.json",
            "  gradcheck merge reports/ --format junit --output gradcheck.xml",
            "  gradcheck merge reports/ --write-durations .ci/gradcheck-durations.json"})
final class MergeCommand extends AbstractCommand<MergeCommand.Work> {

    @Parameters(arity = "1..*", paramLabel = "REPORT",
            description = "JSON reports (check --format json), or directories holding them (every *.json under"
                    + " each, sorted by path).")
    List<Path> reports;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table", converter = FormatConverter.class,
            completionCandidates = FormatConverter.Names.class,
            description = "Format of the merged report: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    ReportFormat format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the merged report to FILE instead of stdout; the summary line goes to stderr.")
    Path output;

    @Option(names = "--junit-file-line", description = "With --format junit: give each <testcase> the file and"
            + " line of its spec (GitLab shows them; pytest's xunit1). Off by default: junit-10.xsd, which Jenkins"
            + " checks reports against, has no such attributes.")
    boolean junitFileLine;

    @Option(names = {"-q", "--quiet"}, description = "The table lists only the checks that set the exit code.")
    boolean quiet;

    @Mixin
    ColorOption color = new ColorOption();

    @Option(names = "--write-durations", paramLabel = "FILE",
            description = "Also write each spec's time to FILE, for `check --shard K/N --shard-durations FILE`.")
    Path writeDurations;

    @Mixin
    ProjectOptions projectOptions;

    private final Terminal terminal;

    /** The reports read, and where the merged report goes, readied already. */
    record Work(ReportWriter writer, ReportMerge.Merged merged) {}

    MergeCommand(Workspace workspace, Terminal terminal) {
        super(workspace);
        this.terminal = terminal;
    }

    @Override
    ProjectOptions projectOptions() {
        return projectOptions;
    }

    /**
     * The reports, refused when they do not merge, then the writer: readied after the reading, since readying it
     * removes an earlier file at --output, which may be one of the reports ({@code merge a.json --output a.json}
     * deleted its input before reading it).
     */
    @Override
    Work configure(Start start) {
        Console console = start.console();
        ReportMerge.Merged merged = ReportMerge.read(reports);
        merged.problems().forEach(p -> console.err().println("gradcheck: merge: " + p));
        if (merged.refused()) {
            return null;
        }
        ReportWriter writer = new ReportWriter(console, format, output, color.mode, quiet, terminal)
                .junitFileLine(junitFileLine);
        return writer.prepare() ? new Work(writer, merged) : null;
    }

    @Override
    int execute(Work work, Start start) {
        ReportMerge.Merged merged = work.merged();
        int exit = merged.exitCode();
        boolean ok = work.writer().write(merged.results(), merged.summary(), merged.interrupted(), merged.details());
        if (!ok) {
            exit = Math.max(exit, ExitCode.USAGE.code());
        }
        if (writeDurations != null) {
            try {
                Durations.write(writeDurations, merged.durations());
            } catch (IOException e) {
                start.console().err().println("gradcheck: merge: cannot write durations to " + writeDurations + ": "
                        + e.getMessage());
                exit = Math.max(exit, ExitCode.USAGE.code());
            }
        }
        return exit;
    }

    /** The code the whole run would have had: the checks', or a shard's own. */
    @Override
    public Map<String, String> exitCodeHelp() {
        Map<String, String> codes = ExitCode.listed(ExitCode.OK, ExitCode.MISMATCH, ExitCode.USAGE, ExitCode.OP_ERROR);
        codes.put(Integer.toString(ExitCode.USAGE.code()), "usage error, a report that cannot be read or merged (not"
                + " one JSON document, not a regular file, an exit_code gradcheck never uses, a schema version mixed,"
                + " a shard twice or missing), an invalid spec, or output not written in full");
        for (ExitCode c : List.of(ExitCode.HANGUP, ExitCode.INTERRUPTED, ExitCode.TERMINATED)) {
            codes.put(Integer.toString(c.code()), "a shard's run was " + c.meaning().substring(0,
                    c.meaning().indexOf(';')) + ": the merged report holds what it had");
        }
        return codes;
    }
}
