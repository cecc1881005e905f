package dev.gradcheck.cli;

import java.util.Locale;
import picocli.CommandLine;

/** A size on the command line: a number of bytes with an optional k, m or g suffix (powers of 1024). */
final class ByteSize {

    private ByteSize() {}

    static long parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.endsWith("b")) {
            t = t.substring(0, t.length() - 1);
        }
        long unit = 1;
        if (!t.isEmpty() && "kmg".indexOf(t.charAt(t.length() - 1)) >= 0) {
            unit = 1L << (10 * ("kmg".indexOf(t.charAt(t.length() - 1)) + 1));
            t = t.substring(0, t.length() - 1);
        }
        double value = Double.parseDouble(t); // NumberFormatException for anything else
        if (!(value > 0)) {
            throw new NumberFormatException("must be > 0");
        }
        return (long) Math.min(Long.MAX_VALUE, value * unit);
    }

    static final class Converter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return parse(value);
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value
                        + "' is not a size; examples: 500m, 2g, 1048576");
            }
        }
    }
}
