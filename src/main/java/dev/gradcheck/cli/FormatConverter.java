package dev.gradcheck.cli;

import dev.gradcheck.report.ReportFormat;
import picocli.CommandLine;

/** --format's values, with a message that lists the valid ones. */
final class FormatConverter implements CommandLine.ITypeConverter<ReportFormat> {
    @Override
    public ReportFormat convert(String value) {
        try {
            return ReportFormat.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
