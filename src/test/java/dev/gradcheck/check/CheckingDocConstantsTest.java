package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/checking.md quotes check/'s tuning constants, in its table "Tuning constants" and in its prose: each quote
 * is held to the code's value here, so a constant changed without its doc (or a doc edited without the code) fails.
 */
class CheckingDocConstantsTest {

    private static final Path DOC = Path.of("docs/checking.md");
    private static final String[] ROOMS = {"", ".numeric", ".jacobian", ".target", ".dense", ".colouring",
        ".twosided", ".full", ".fast"};
    private static final Pattern ROW = Pattern.compile("^\\| `(\\w+)\\.(\\w+)` \\| ([^|]+?) \\|", Pattern.MULTILINE);
    private static final String[] WORDS = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
        "nine", "ten"};

    @Test
    void theTableQuotesTheCodesValues() throws Exception {
        String table = section(Files.readString(DOC), "## Tuning constants");
        Matcher row = ROW.matcher(table);
        List<String> checked = new ArrayList<>();
        while (row.find()) {
            double quoted = Double.parseDouble(row.group(3).trim());
            assertEquals(value(row.group(1), row.group(2)), quoted,
                    "docs/checking.md quotes " + row.group(1) + "." + row.group(2) + " as " + row.group(3).trim());
            checked.add(row.group(2));
        }
        assertTrue(checked.size() >= 15, "the table's rows were not read: " + checked);
    }

    @Test
    void theProseQuotesTheCodesValues() throws Exception {
        String doc = Files.readString(DOC).replaceAll("\\s+", " ");
        quotes(doc, "at least %s forward evaluations' worth, a backward pass counting %s",
                "TwoSidedTuning.MIN_KNOWN_COST", "ColouringTuning.BACKWARD_COST");
        quotes(doc, "costs at most half (%s times) the one-sided path's known side", "TwoSidedTuning.MAX_SHARE");
        quotes(doc, "Where the one-sided path's known side would cost at least %s forward evaluations' worth",
                "TwoSidedTuning.MIN_KNOWN_COST");
        quotes(doc, "Up to %s such rounds, %s located lines and %s forward evaluations' worth of search",
                "TwoSidedTuning.MAX_ROUNDS:word", "TwoSidedTuning.MAX_LINES", "TwoSidedTuning.MIN_BUDGET");
        quotes(doc, "(up to %s entries; more, and the one-sided path takes the target)",
                "TwoSidedTuning.MAX_RECOMPUTED");
        quotes(doc, "a batch of evaluations (%s per thread)", "TwoSidedTuning.BATCH_PER_THREAD");
        quotes(doc, "(%s doubles per element of each side)", "TwoSidedTuning.VECTORS_HELD");
        quotes(doc, "An entry whose score under the tolerance alone is above %s", "NumericTuning.AGAIN_ABOVE");
        quotes(doc, "(`%s·ε·max(1, max|y|)/δ`", "NumericTuning.NOISE_MARGIN");
        quotes(doc, "against %s forwards' worth per backward pass", "ColouringTuning.BACKWARD_COST");
        quotes(doc, "(up to %s times)", "Resampler.MAX_RESAMPLES");
        quotes(doc, "rtol = max(%s·ε, %s·ν), atol = max(%s·ε·min(1, G)", "Defaults.FLOAT32_RELATIVE_ULPS",
                "Defaults.NOISE_FACTOR", "Defaults.FLOAT32_ABSOLUTE_ULPS");
    }

    /** The doc holds {@code template} with each {@code %s} the named constant's value (":word": spelled out). */
    private static void quotes(String doc, String template, String... constants) throws Exception {
        Object[] values = new Object[constants.length];
        for (int k = 0; k < constants.length; k++) {
            String[] name = constants[k].split("[.:]");
            double v = value(name[0], name[1]);
            values[k] = name.length > 2 ? WORDS[(int) v] : format(v);
        }
        String sentence = String.format(template, values);
        assertTrue(doc.contains(sentence), "docs/checking.md should say \"" + sentence + "\"");
    }

    private static String format(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** A static numeric field of a class in check/ or one of its rooms, read whatever its access. */
    private static double value(String simpleName, String field) throws ReflectiveOperationException {
        for (String room : ROOMS) {
            Class<?> c;
            try {
                c = Class.forName("dev.gradcheck.check" + room + "." + simpleName);
            } catch (ClassNotFoundException e) {
                continue;
            }
            Field f = c.getDeclaredField(field);
            f.setAccessible(true);
            return ((Number) f.get(null)).doubleValue();
        }
        throw new ClassNotFoundException(simpleName + " is in no room of check/");
    }

    /** From the heading to the next heading of the same level or above. */
    private static String section(String doc, String heading) {
        int from = doc.indexOf("\n" + heading + "\n");
        assertTrue(from >= 0, "docs/checking.md has no section " + heading);
        int to = doc.indexOf("\n## ", from + heading.length() + 1);
        return doc.substring(from, to < 0 ? doc.length() : to);
    }
}
