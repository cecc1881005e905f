package dev.gradcheck.report;

/**
 * What a renderer needs to know beyond the results themselves.
 *
 * @param color       emit ANSI colour codes (only formats meant for a terminal use it)
 * @param toolVersion the gradcheck version, recorded in machine-readable reports
 * @param quiet       the table lists only the checks that set the exit code (machine formats list every check)
 * @param interrupted the run was cut short (Ctrl-C): the report holds only the checks that finished
 * @param run         when and where the run was, its shard, fail-fast's stop, each check's origin
 * @param columns     the width the table fits into (a terminal's); 0 for no limit (files, pipes)
 */
public record ReportContext(boolean color, String toolVersion, boolean quiet, boolean interrupted, RunDetails run,
                            int columns) {

    public ReportContext {
        run = run == null ? RunDetails.NONE : run;
    }

    public ReportContext(boolean color, String toolVersion, boolean quiet, boolean interrupted, RunDetails run) {
        this(color, toolVersion, quiet, interrupted, run, 0);
    }

    public ReportContext(boolean color, String toolVersion, boolean quiet, boolean interrupted) {
        this(color, toolVersion, quiet, interrupted, RunDetails.NONE);
    }

    public ReportContext(boolean color, String toolVersion, boolean quiet) {
        this(color, toolVersion, quiet, false);
    }

    public ReportContext(boolean color, String toolVersion) {
        this(color, toolVersion, false);
    }

    /** No colour: for files, pipes and CI logs. */
    public static ReportContext plain(String toolVersion) {
        return new ReportContext(false, toolVersion);
    }

    /** The same context with these run details. */
    public ReportContext with(RunDetails details) {
        return new ReportContext(color, toolVersion, quiet, interrupted, details, columns);
    }

    /** The same context fitted into {@code width} columns (0: no limit). */
    public ReportContext withColumns(int width) {
        return new ReportContext(color, toolVersion, quiet, interrupted, run, width);
    }

    /** The same context for a run cut short, or not. */
    public ReportContext interrupted(boolean cutShort) {
        return new ReportContext(color, toolVersion, quiet, cutShort, run, columns);
    }
}
