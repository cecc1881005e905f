package dev.gradcheck.cli.options;

import dev.gradcheck.report.ReportFormat;
import dev.gradcheck.spec.Suggestions;
import picocli.CommandLine;

/** --format's values, with a message that lists the valid ones. */
public final class FormatConverter implements CommandLine.ITypeConverter<ReportFormat> {
    @Override
    public ReportFormat convert(String value) {
        try {
            return ReportFormat.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("unknown report format '" + value + "'"
                    + Suggestions.choices(value, names()));
        }
    }

    /** --format's values for help texts and completion: every {@link ReportFormat}'s name. */
    public static final class Names implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return names().iterator();
        }
    }

    static java.util.List<String> names() {
        return java.util.Arrays.stream(ReportFormat.values()).map(ReportFormat::cliName).toList();
    }
}
