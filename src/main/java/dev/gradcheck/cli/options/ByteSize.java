package dev.gradcheck.cli.options;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * A size on the command line: a number of bytes, or a number with a unit. Units are powers of 1024, however they
 * are written: {@code k}, {@code K}, {@code KB}, {@code KiB} (likewise M, G, T, P, E), so {@code 2GiB}, {@code 2g} and
 * {@code 2G} are the same; a trailing {@code B} alone means bytes.
 */
public final class ByteSize {

    private static final Pattern SIZE = Pattern.compile("([0-9]*\\.?[0-9]+(?:e[+-]?[0-9]+)?)\\s*([kmgtpe]?)(i?b)?");
    private static final String UNITS = "kmgtpe";

    private ByteSize() {}

    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
        boolean prefixWithoutUnit = m.matches() && m.group(2).isEmpty() && "ib".equals(m.group(3)); // "5iB"
        if (!m.matches() || prefixWithoutUnit) {
            throw new NumberFormatException("not a size: " + text);
        }
        double value = Double.parseDouble(m.group(1));
        long unit = m.group(2).isEmpty() ? 1 : 1L << (10 * (UNITS.indexOf(m.group(2).charAt(0)) + 1));
        double bytes = value * unit;
        // one range whatever the spelling: 99999999999999999999 was taken (clamped) while 1EiB was refused
        if (!(bytes >= 1) || bytes >= 0x1p63) {
            throw new NumberFormatException("must be from 1 byte to under 8EiB");
        }
        return (long) bytes;
    }

    static final class Converter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return parse(value);
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a size from 1 byte to under"
                        + " 8EiB; examples: 500MiB, 2GiB, 2g, 1048576 (bytes)");
            }
        }
    }
}
