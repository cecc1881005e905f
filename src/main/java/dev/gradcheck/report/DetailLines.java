package dev.gradcheck.report;

import dev.gradcheck.check.CheckResult;
import dev.gradcheck.check.GradientResult;
import dev.gradcheck.check.WorstElement;
import java.util.ArrayList;
import java.util.List;

/**
 * The indented lines the table prints under a check: why it needs attention, or which known bug it records.
 * A plain pass gets none, so a healthy run stays one line per spec.
 */
public final class DetailLines {

    private DetailLines() {}

    public static List<String> of(CheckResult r) {
        List<String> lines = new ArrayList<>();
        switch (r.status()) {
            case PASSED -> { }
            // Expected outcomes still name their reason: a known bug must stay visible in every run.
            case EXPECTED_FAIL, EXPECTED_ERROR -> lines.add("expected: " + reasonOrDefault(r));
            case UNEXPECTED_PASS -> lines.add("expected " + r.expected() + reasonInParens(r)
                    + " but every gradient passed");
            case FAILED -> {
                for (GradientResult g : r.gradients()) {
                    if (!g.verdict().passed()) {
                        lines.add(gradientLine(g, r.tolerance()));
                    }
                }
                lines.addAll(messageLines(r.message()));
            }
            case ERROR, INVALID -> {
                List<String> message = messageLines(r.message());
                lines.addAll(message.isEmpty() ? List.of("(no message)") : message);
            }
        }
        return lines;
    }

    /** One failing block. Errors and tolerance are shown side by side, true under either tolerance rule. */
    static String gradientLine(GradientResult g, String tolerance) {
        String head = GradientText.name(g) + ": " + g.verdict().reportName();
        WorstElement w = g.worst();
        return switch (g.verdict()) {
            case ZERO_GRADIENT -> head + ", analytic gradient is zero but numerical is not"
                    + (w == null ? "" : ", e.g. " + GradientText.location(g, w)
                            + ": numerical " + Numbers.plain(w.numerical()));
            default -> head + ", max rel err " + Numbers.sci(g.maxRelError())
                    + ", max abs err " + Numbers.sci(g.maxAbsError())
                    + " (tolerance " + tolerance + ")"
                    + (w == null ? "" : ", worst at " + GradientText.location(g, w)
                            + ": analytic " + Numbers.plain(w.analytic())
                            + ", numerical " + Numbers.plain(w.numerical()));
        };
    }

    private static List<String> messageLines(String message) {
        if (message == null || message.isBlank()) {
            return List.of();
        }
        return message.strip().lines().map(String::stripTrailing).toList();
    }

    private static String reasonOrDefault(CheckResult r) {
        return r.reason() == null || r.reason().isBlank() ? r.expected() + " (no reason given)" : r.reason();
    }

    private static String reasonInParens(CheckResult r) {
        return r.reason() == null || r.reason().isBlank() ? "" : " (" + r.reason() + ")";
    }
}
