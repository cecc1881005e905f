package dev.gradcheck.report;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * {@code --format github}: GitHub Actions workflow commands, one {@code ::error} annotation per check that sets the
 * exit code, at its spec's file (relative to the repository's root, as GitHub places annotations, wherever
 * gradcheck ran from), line and column, so the failures show on the pull request's diff:
 *
 * <pre>
 * ::error file=specs/softmax.yaml,line=1,col=1,title=gradcheck FAILED softmax-rows::d0/dw: mismatch, ...
 * </pre>
 *
 * <p>The message is the check's detail lines (several lines, as the annotation shows them); then the summary line
 * as plain text for the job's log. A run cut short by a signal adds an {@code ::error} that says so. Escaped as
 * GitHub's runner reads workflow commands (actions/toolkit's {@code command.ts}): {@code %}, CR and LF in the
 * message as {@code %25}, {@code %0D}, {@code %0A}, and in a property also {@code :} and {@code ,} as {@code %3A}
 * and {@code %2C}; other control characters as visible escapes ({@link SafeText#forTerminal}), so a name cannot
 * start a command of its own or colour the log. Layout in docs/report-schema.md.
 */
final class GithubRenderer implements ReportRenderer {

    @Override
    public void render(List<CheckResult> results, Summary summary, ReportContext ctx, Writer out) throws IOException {
        StringBuilder text = new StringBuilder();
        for (CheckResult r : results) {
            if (!r.status().needsAttention()) {
                continue;
            }
            SpecPlace place = SpecPlace.of(r.location());
            text.append("::error file=").append(property(SpecPlace.repositoryFile(r, ctx.run())));
            if (place.line() != null) {
                text.append(",line=").append(place.line()).append(",col=").append(place.col());
            }
            text.append(",title=").append(property("gradcheck " + StatusLabel.of(r.status()) + " " + r.name()))
                    .append("::").append(message(DetailLines.of(r), DetailLines.headline(r))).append('\n');
        }
        if (ctx.interrupted()) {
            text.append("::error title=gradcheck interrupted::").append(message(List.of("the run was interrupted by a"
                    + " signal: only the " + results.size() + " check(s) that finished are reported"), "")).append('\n');
        }
        text.append(SafeText.forTerminal(SummaryLine.of(summary, ctx))).append('\n');
        out.write(text.toString());
    }

    /** The detail lines, each made safe for a log line, joined by an escaped line feed. */
    private static String message(List<String> lines, String orElse) {
        List<String> shown = lines.isEmpty() ? List.of(orElse) : lines;
        StringBuilder b = new StringBuilder();
        for (String line : shown) {
            b.append(b.length() == 0 ? "" : "%0A").append(data(SafeText.forTerminal(line)));
        }
        return b.toString();
    }

    /** A command's message: {@code %}, CR and LF escaped (CR and LF are already visible escapes here). */
    static String data(String s) {
        return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    /** A command's property value: as its message, and {@code :} and {@code ,}, which end a value. */
    static String property(String s) {
        return data(SafeText.forTerminal(s == null ? "" : s)).replace(":", "%3A").replace(",", "%2C");
    }
}
