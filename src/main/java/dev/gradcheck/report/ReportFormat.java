package dev.gradcheck.report;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The output formats {@code --format} accepts. The enum is the renderer factory (as in Checkstyle's
 * {@code OutputFormat}), so a new format is one constant here plus its renderer class.
 */
public enum ReportFormat {
    TABLE(TableRenderer::new),
    JSON(JsonRenderer::new),
    JUNIT(JUnitRenderer::new),
    HTML(HtmlRenderer::new);

    private final Supplier<ReportRenderer> factory;

    ReportFormat(Supplier<ReportRenderer> factory) {
        this.factory = factory;
    }

    /** A fresh renderer for this format. */
    public ReportRenderer renderer() {
        return factory.get();
    }

    /** The name users type: {@code table}, {@code json}, {@code junit}, {@code html}. */
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
