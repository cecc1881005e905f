package dev.gradcheck.report;

import dev.gradcheck.result.BackendDifference;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.EntrySet;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.EntryRegion;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import java.util.ArrayList;
import java.util.List;

/**
 * The indented lines the table prints under a check: why it needs attention, or which known bug it records.
 * A plain pass gets none, so a healthy run stays one line per spec; a pass that left nondifferentiable points
 * out says so, since those points were not checked.
 */
public final class DetailLines {

    /** The block's own line is a detail line; what it says about its entries goes two spaces deeper. */
    private static final String SUB_INDENT = "  ";
    private static final int MAX_LOG_LINES = 8;

    private DetailLines() {}

    public static List<String> of(CheckResult r) {
        List<String> lines = new ArrayList<>();
        switch (r.status()) {
            // a pass that set points aside says so: those points were not checked
            case PASSED -> {
                r.gradients().stream().filter(g -> g.verdict() == Verdict.NONDIFFERENTIABLE
                                || g.verdict() == Verdict.UNRESOLVABLE)
                        .forEach(g -> lines.add(gradientLine(g, r.tolerance())));
                // masked entries were not judged either
                r.gradients().stream().filter(g -> g.mismatches() != null && g.mismatches().masked() > 0)
                        .forEach(g -> lines.add(maskedLine(g)));
                lines.addAll(NodeLines.skipped(r.nodes())); // and parts of a network not checked, with why
            }
            // Expected outcomes still name their reason: a known bug must stay visible in every run.
            case EXPECTED_FAIL, EXPECTED_ERROR -> {
                lines.add("expected: " + reasonOrDefault(r));
                lines.addAll(NodeLines.of(r.nodes()));
            }
            case UNEXPECTED_PASS -> lines.add("expected " + r.expected() + reasonInParens(r)
                    + " but every gradient passed");
            case FAILED -> {
                for (GradientResult g : r.gradients()) {
                    if (!g.verdict().passed() || g.verdict() == Verdict.NONDIFFERENTIABLE
                            || g.verdict() == Verdict.UNRESOLVABLE) {
                        lines.add(gradientLine(g, r.tolerance()));
                        lines.addAll(mismatchLines(g));
                    }
                }
                lines.addAll(NodeLines.of(r.nodes()));
                if (!r.defaultedAttributes().isEmpty()) {
                    lines.add(defaultsLine(r.defaultedAttributes()));
                }
                lines.addAll(messageLines(r.message()));
            }
            case SKIPPED -> lines.addAll(messageLines(r.message()));
            case ERROR, INVALID, CRASHED, TIMEOUT -> {
                List<String> message = messageLines(r.message());
                lines.addAll(message.isEmpty() ? List.of("(no message)") : message);
                if (r.status() != Status.CRASHED) { // a crash's message already ends with the worker's last lines
                    lines.addAll(logLines(r));
                }
            }
        }
        if (r.crossBackend() != null) {
            lines.add(crossBackendLine(r.crossBackend()));
        }
        return lines;
    }

    /**
     * The one line that says why a check ended as it did: its first detail line (the first failing block, the
     * message's first line, the expectation), or its status's name when it has none. The table's recap, JUnit's
     * failure message and GitHub's annotation all say this.
     */
    public static String headline(CheckResult r) {
        return of(r).stream().map(String::strip).filter(l -> !l.isEmpty()).findFirst()
                .orElse(r.status().jsonName());
    }

    /** Shown whatever the status: with --backend all the difference between engines is what was asked for. */
    private static String crossBackendLine(BackendDifference d) {
        return "vs " + d.against() + ": outputs differ by at most " + Numbers.sci(d.maxOutputAbs()) + " (rel "
                + Numbers.sci(d.maxOutputRel()) + (d.worstOutput().isEmpty() ? "" : " at " + d.worstOutput())
                + "), gradients by " + Numbers.sci(d.maxGradientAbs()) + " (rel " + Numbers.sci(d.maxGradientRel())
                + (d.worstGradient().isEmpty() ? "" : " at " + d.worstGradient()) + ")";
    }

    /** One failing block. Errors and tolerance are shown side by side, true under either tolerance rule. */
    static String gradientLine(GradientResult g, String tolerance) {
        String head = (g.order() == 2 ? "order 2 " : "") + GradientText.name(g) + ": " + g.verdict().reportName();
        String note = g.note() == null ? "" : " [" + g.note() + "]";
        if (g.kind().isSanityCheck()) {
            return head + note;
        }
        return figures(head, g, tolerance) + note;
    }

    private static String figures(String head, GradientResult g, String tolerance) {
        WorstElement w = g.worst();
        if (g.kind() == CheckKind.FAST && g.mismatches() == null) { // a narrowed fast row names its entries below
            return head + ", v'Ju analytic " + Numbers.plain(w.analytic()) + ", numerical "
                    + Numbers.plain(w.numerical()) + " (tolerance " + tolerance + ")";
        }
        return switch (g.verdict()) {
            case ZERO_GRADIENT -> head + ", analytic gradient is zero but numerical is not"
                    + (w == null ? "" : ", e.g. " + GradientText.location(g, w)
                            + ": numerical " + Numbers.plain(w.numerical()));
            case NON_FINITE -> head + ", NaN or infinity in the output or a gradient"
                    + (w == null ? "" : ", e.g. " + GradientText.location(g, w)
                            + ": analytic " + Numbers.plain(w.analytic())
                            + ", numerical " + Numbers.plain(w.numerical()));
            default -> head + ", max rel err " + Numbers.sci(g.maxRelError())
                    + ", max abs err " + Numbers.sci(g.maxAbsError())
                    + " (tolerance " + tolerance + ")"
                    + (w == null ? "" : ", worst at " + GradientText.location(g, w)
                            + ": analytic " + Numbers.plain(w.analytic())
                            + ", numerical " + Numbers.plain(w.numerical()));
        };
    }

    /**
     * What the engine printed during a check that errored, under the message: ND4J's log lines and libnd4j's prints
     * that the message does not already quote, each once, at most {@value #MAX_LOG_LINES} (the JSON report's
     * {@code log} has them all).
     */
    private static List<String> logLines(CheckResult r) {
        String message = r.message() == null ? "" : r.message();
        List<String> printed = r.log().stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !message.contains(l)).distinct().toList(); // ND4J logs some errors twice
        List<String> lines = new ArrayList<>();
        if (printed.isEmpty()) {
            return lines;
        }
        lines.add("printed during the check:");
        printed.stream().limit(MAX_LOG_LINES).forEach(l -> lines.add("  " + l));
        if (printed.size() > MAX_LOG_LINES) {
            lines.add("  ... " + (printed.size() - MAX_LOG_LINES) + " more lines (the JSON report's log has them all)");
        }
        return lines;
    }

    /**
     * Under a failing block: how many entries mismatch and where, then the worst few (when there are several). Two
     * spaces deeper than the block's line.
     */
    static List<String> mismatchLines(GradientResult g) {
        Mismatches m = g.mismatches();
        if (m == null || m.count() == 0) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        lines.add(SUB_INDENT + countPhrase(g) + (m.masked() > 0 ? "; " + m.masked() + " masked" : ""));
        if (m.analyticNonzero() != null && m.numericalNonzero() != null) {
            lines.add(SUB_INDENT + supportLine(g));
        }
        if (m.worst().size() > 1) {
            List<String> worst = new ArrayList<>();
            for (WorstElement w : m.worst()) {
                worst.add(GradientText.location(g, w) + ": analytic " + Numbers.plain(w.analytic()) + ", numerical "
                        + Numbers.plain(w.numerical()));
            }
            lines.add(SUB_INDENT + "worst " + worst.size() + ": " + String.join("; ", worst));
        }
        return lines;
    }

    /** {@code 6 / 16 entries mismatch, exactly those at y[1-3, i] / b[i]}. */
    static String countPhrase(GradientResult g) {
        Mismatches m = g.mismatches();
        String count = m.count() + " / " + m.judged() + " entries mismatch";
        return m.region() == null ? count : count + ", " + where(g, m.region(), "those at ");
    }

    /**
     * Where a set of entries lies: {@code exactly y[1-3, i] / b[i]}, {@code within out[:, 0-1] / x[:, :]},
     * {@code every entry}, {@code spread over the whole block}; a diagonal says so.
     */
    static String where(GradientResult g, EntryRegion region, String exactly) {
        if (region.wholeBlock()) {
            return region.exact() ? "every entry" : "spread over the whole block";
        }
        return (region.exact() ? "exactly " + exactly : "all within ") + GradientText.region(g, region)
                + (region.diagonal() ? " (the diagonal)" : "");
    }

    /**
     * When the two sides are nonzero at different entries, where each is: a backward that never reaches some
     * entries (zero off the diagonal, or outside a batch row) shows here at a glance.
     */
    private static String supportLine(GradientResult g) {
        Mismatches m = g.mismatches();
        return "nonzero entries: analytic " + support(g, m.analyticNonzero()) + "; numerical "
                + support(g, m.numericalNonzero());
    }

    private static String support(GradientResult g, EntrySet set) {
        return set.count() == 0 ? "none" : set.count() + ", " + where(g, set.region(), "");
    }

    private static String maskedLine(GradientResult g) {
        Mismatches m = g.mismatches();
        return GradientText.name(g) + ": " + m.masked() + " of " + (m.judged() + m.masked())
                + " entries masked (mask:), not judged";
    }

    /** ND4J's forward and backward kernels may take different defaults for one attribute (elu's alpha: 1 and 0). */
    private static String defaultsLine(List<String> names) {
        return "left at their defaults: " + String.join(", ", names) + " (a forward and a backward that default an"
                + " attribute differently disagree: set it in attrs to rule that out)";
    }

    static List<String> messageLines(String message) {
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
