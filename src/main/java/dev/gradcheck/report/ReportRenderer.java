package dev.gradcheck.report;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * Writes a batch of check results in one output format. Implementations are stateless and write only to
 * {@code out}, which they never close: the caller owns it, whether it is stdout or {@code --output FILE}, and
 * flushes and closes it.
 */
public interface ReportRenderer {

    void render(List<CheckResult> results, Summary summary, ReportContext ctx, Writer out) throws IOException;
}
