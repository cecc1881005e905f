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
 * @param linkBase    what the HTML report puts before a spec's relative path to link to it: the way from the
 *                    page's directory to the directory the run's paths are relative to ({@code ../../} for
 *                    {@code --output build/reports/r.html}); "" when the page is written there (or to stdout)
 * @param junitFileLine JUnit XML's {@code <testcase>} carries {@code file} and {@code line} ({@code
 *                    --junit-file-line}): GitLab reads them, but junit-10.xsd does not allow them, so by default
 *                    they are left out and the report is schema-valid (pytest's {@code junit_family} choice)
 */
public record ReportContext(boolean color, String toolVersion, boolean quiet, boolean interrupted, RunDetails run,
                            int columns, String linkBase, boolean junitFileLine) {

    public ReportContext {
        run = run == null ? RunDetails.NONE : run;
        linkBase = linkBase == null ? "" : linkBase;
    }

    public ReportContext(boolean color, String toolVersion, boolean quiet, boolean interrupted, RunDetails run,
                         int columns) {
        this(color, toolVersion, quiet, interrupted, run, columns, "", false);
    }

    /**
     * The link base for a page written into {@code pageDir}: the relative way from there to the working directory,
     * which the specs' paths are relative to ({@code ../../}, or "" when it is the working directory).
     */
    public static String linkBaseFor(java.nio.file.Path pageDir) {
        java.nio.file.Path from = pageDir.toAbsolutePath().normalize();
        java.nio.file.Path cwd = java.nio.file.Path.of("").toAbsolutePath().normalize();
        String way = from.relativize(cwd).toString().replace('\\', '/');
        return way.isEmpty() ? "" : way + "/";
    }

    /** The same context with the HTML report's links based at {@code base}. */
    public ReportContext withLinkBase(String base) {
        return new ReportContext(color, toolVersion, quiet, interrupted, run, columns, base, junitFileLine);
    }

    /** The same context, JUnit XML's test cases carrying their file and line or not. */
    public ReportContext withJUnitFileLine(boolean fileLine) {
        return new ReportContext(color, toolVersion, quiet, interrupted, run, columns, linkBase, fileLine);
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
        return new ReportContext(color, toolVersion, quiet, interrupted, details, columns, linkBase, junitFileLine);
    }

    /** The same context fitted into {@code width} columns (0: no limit). */
    public ReportContext withColumns(int width) {
        return new ReportContext(color, toolVersion, quiet, interrupted, run, width, linkBase, junitFileLine);
    }

    /** The same context for a run cut short, or not. */
    public ReportContext interrupted(boolean cutShort) {
        return new ReportContext(color, toolVersion, quiet, cutShort, run, columns, linkBase, junitFileLine);
    }
}
