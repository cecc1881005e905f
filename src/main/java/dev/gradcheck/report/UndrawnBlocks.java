package dev.gradcheck.report;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The failing Jacobian blocks that came back without their matrices, for a format that draws matrices to name. A
 * run that asks for matrices gets them where a check's dense blocks fit its memory budget; elsewhere the check runs
 * as it would for any format (compressed, the same verdict), so the page or dump says which blocks it could not
 * draw rather than change the verdict to get them.
 */
public final class UndrawnBlocks {

    /** Why a live run's failing block has no matrices. */
    public static final String OVER_BUDGET = "dense Jacobians over the memory budget (--max-memory): judged"
            + " without them, with the verdict any format gives";
    /** Why a merged report's failing block has none. */
    public static final String MERGED = "the reports merged here carry figures, not matrices";

    private UndrawnBlocks() {
    }

    /** The failing Jacobian blocks of {@code result} that carry no matrices. */
    public static List<GradientResult> of(CheckResult result) {
        List<GradientResult> undrawn = new ArrayList<>();
        for (GradientResult g : result.gradients() == null ? List.<GradientResult>of() : result.gradients()) {
            if (g.kind() == CheckKind.JACOBIAN && g.verdict() != null && !g.verdict().passed()
                    && g.jacobians() == null) {
                undrawn.add(g);
            }
        }
        return undrawn;
    }

    /** The reason for the report {@code ctx} describes: a merge's, or a live run's. */
    public static String why(ReportContext ctx) {
        return ctx.run().sources().isEmpty() ? OVER_BUDGET : MERGED;
    }

    /** {@code name d0/dx}, as the pages head a block. */
    public static String name(CheckResult r, GradientResult g) {
        return r.name() + " " + GradientText.name(g);
    }
}
