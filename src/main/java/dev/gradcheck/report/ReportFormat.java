package dev.gradcheck.report;

import dev.gradcheck.result.JacobianCapture;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The output formats {@code --format} accepts. The enum is the renderer factory (as in Checkstyle's
 * {@code OutputFormat}) and says what else a format needs of a run, so a new format is one constant here plus its
 * renderer class, and the command asks the constant instead of comparing it with the formats it knows.
 */
public enum ReportFormat {
    TABLE(TableRenderer::new, Writing.ROW_BY_ROW, JacobianCapture.NONE, Listing.TABLE),
    JSON(JsonRenderer::new, Writing.WHOLE, JacobianCapture.NONE, Listing.JSON),
    JUNIT(JUnitRenderer::new, Writing.WHOLE, JacobianCapture.NONE, Listing.NONE),
    HTML(HtmlRenderer::new, Writing.WHOLE, JacobianCapture.FAILING, Listing.TABLE),
    /** GitHub Actions annotations: one {@code ::error} per unexpected result, on the spec's file and line. */
    GITHUB(GithubRenderer::new, Writing.WHOLE, JacobianCapture.NONE, Listing.NONE);

    /** How a report in this format reaches stdout. */
    private enum Writing {
        /** Each check's row as soon as it and every row before it have finished (the live table). */
        ROW_BY_ROW,
        /** The whole report once the run is over: a document that is only valid complete. */
        WHOLE
    }

    /** How {@code check --collect-only} lists the specs it would check when this format is asked for. */
    public enum Listing {
        /** A plain-text table, one spec a line. */
        TABLE,
        /** JSON ({@code "schema": "gradcheck-collection"}, docs/report-schema.md). */
        JSON,
        /** None: the format describes checks that ran, so {@code --collect-only} with it is a usage error. */
        NONE
    }

    private final Supplier<ReportRenderer> factory;
    private final Writing writing;
    private final JacobianCapture matrices;
    private final Listing listing;

    ReportFormat(Supplier<ReportRenderer> factory, Writing writing, JacobianCapture matrices, Listing listing) {
        this.factory = factory;
        this.writing = writing;
        this.matrices = matrices;
        this.listing = listing;
    }

    /** A fresh renderer for this format. */
    public ReportRenderer renderer() {
        return factory.get();
    }

    /**
     * Whether the report is written row by row while the run goes, when it goes to stdout (to a file, every
     * format is written whole at the end, so that a reader never sees half of it).
     */
    public boolean streams() {
        return writing == Writing.ROW_BY_ROW;
    }

    /**
     * The Jacobian blocks whose matrices the format draws (HTML's heat maps: the failing ones), which the run must
     * then ask its checks for; {@link JacobianCapture#NONE} for a format that shows figures only.
     */
    public JacobianCapture matrices() {
        return matrices;
    }

    /** How {@code --collect-only} lists a selection in this format, or {@link Listing#NONE} when it cannot. */
    public Listing listing() {
        return listing;
    }

    /** The name users type: {@code table}, {@code json}, {@code junit}, {@code html}, {@code github}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The format named {@code name}, ignoring case and surrounding blanks.
     *
     * @throws IllegalArgumentException naming the accepted formats, for a usage error message
     */
    public static ReportFormat parse(String name) {
        String wanted = name == null ? "" : name.strip();
        for (ReportFormat f : values()) {
            if (f.cliName().equalsIgnoreCase(wanted)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown report format '" + name + "', expected one of: " + names());
    }

    /** The accepted names, comma separated, for help texts and error messages. */
    public static String names() {
        return Arrays.stream(values()).map(ReportFormat::cliName).collect(Collectors.joining(", "));
    }
}
