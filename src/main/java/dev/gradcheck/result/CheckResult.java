package dev.gradcheck.result;

import java.util.List;

/**
 * The plain record of one spec's check: what report/ renders. No ND4J types.
 *
 * @param name      spec name
 * @param location  {@code file:line:col} of the spec document
 * @param op        operator name ("" when the spec was unreadable)
 * @param backend   engine that ran it ("cpu")
 * @param dtype     dtype of the checked inputs, or "" when unknown
 * @param status    final status after the expectation
 * @param expected  the expectation, "pass", "fail" or "error"
 * @param reason    the expectation's reason, or null
 * @param message   error text for ERROR / INVALID (one line per problem), or null
 * @param gradients one entry per (output, input) block, in output-major order
 * @param tolerance the rule used, as text (e.g. "max_relative_error=1e-06")
 * @param delta     the finite-difference step used
 * @param seconds   wall time of the whole check
 * @param nodes     for a graph spec whose check found a mismatch, each node checked on its own; otherwise empty
 * @param crossBackend how far this backend's outputs and gradients are from another's on the same inputs
 *                  ({@code --backend all}), or null
 * @param defaultedAttributes the op's attributes the spec left out, so the op's own defaults applied (a forward and
 *                  a backward that default one differently disagree: elu's alpha); graph nodes as
 *                  {@code "h1: alpha"}; empty when none or not known
 * @param log       what the engine printed while it ran this check, line by line in the order printed: ND4J's log
 *                  lines and libnd4j's native prints (a worker captures both; a check in this JVM captures only
 *                  Java's); empty when it printed nothing
 * @param calls     the forward evaluations and backward passes the check made on the function it judged, or null
 *                  where no function ran (an invalid spec, a crash before the check began)
 */
public record CheckResult(
        String name,
        String location,
        String op,
        String backend,
        String dtype,
        Status status,
        String expected,
        String reason,
        String message,
        List<GradientResult> gradients,
        String tolerance,
        double delta,
        double seconds,
        List<NodeFinding> nodes,
        BackendDifference crossBackend,
        List<String> defaultedAttributes,
        List<String> log,
        Calls calls) {

    public CheckResult {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        defaultedAttributes = defaultedAttributes == null ? List.of() : List.copyOf(defaultedAttributes);
        log = log == null ? List.of() : List.copyOf(log);
    }

    /** Nothing printed worth keeping (the engine's lines are added by {@link #withLog}). */
    // the record's components, less trailing ones that default: they are the report's flat fields, which JSON
    // readers rebuild by component name, so grouping them into smaller records would change the schema
    @SuppressWarnings("checkstyle:ParameterNumber")
    public CheckResult(String name, String location, String op, String backend, String dtype, Status status,
                       String expected, String reason, String message, List<GradientResult> gradients,
                       String tolerance, double delta, double seconds, List<NodeFinding> nodes,
                       BackendDifference crossBackend, List<String> defaultedAttributes) {
        this(name, location, op, backend, dtype, status, expected, reason, message, gradients, tolerance, delta,
                seconds, nodes, crossBackend, defaultedAttributes, List.of(), null);
    }

    /** Without attributes known to be left at their defaults. */
    // the record's components, less trailing ones that default: they are the report's flat fields, which JSON
    // readers rebuild by component name, so grouping them into smaller records would change the schema
    @SuppressWarnings("checkstyle:ParameterNumber")
    public CheckResult(String name, String location, String op, String backend, String dtype, Status status,
                       String expected, String reason, String message, List<GradientResult> gradients,
                       String tolerance, double delta, double seconds, List<NodeFinding> nodes,
                       BackendDifference crossBackend) {
        this(name, location, op, backend, dtype, status, expected, reason, message, gradients, tolerance, delta,
                seconds, nodes, crossBackend, List.of());
    }

    /** A result with no per-node findings (every one-op spec, and graphs that passed) and no backend comparison. */
    // the record's components, less trailing ones that default: they are the report's flat fields, which JSON
    // readers rebuild by component name, so grouping them into smaller records would change the schema
    @SuppressWarnings("checkstyle:ParameterNumber")
    public CheckResult(String name, String location, String op, String backend, String dtype, Status status,
                       String expected, String reason, String message, List<GradientResult> gradients,
                       String tolerance, double delta, double seconds) {
        this(name, location, op, backend, dtype, status, expected, reason, message, gradients, tolerance, delta,
                seconds, List.of(), null, List.of());
    }

    public CheckResult withNodes(List<NodeFinding> found, double totalSeconds) {
        return new CheckResult(name, location, op, backend, dtype, status, expected, reason, message, gradients,
                tolerance, delta, totalSeconds, found, crossBackend, defaultedAttributes, log, calls);
    }

    public CheckResult withCrossBackend(BackendDifference difference) {
        return new CheckResult(name, location, op, backend, dtype, status, expected, reason, message, gradients,
                tolerance, delta, seconds, nodes, difference, defaultedAttributes, log, calls);
    }

    public CheckResult withDefaultedAttributes(List<String> names) {
        return new CheckResult(name, location, op, backend, dtype, status, expected, reason, message, gradients,
                tolerance, delta, seconds, nodes, crossBackend, names, log, calls);
    }

    /** The same result with every row's matrices dropped (once written or drawn, reports need only the figures). */
    public CheckResult withoutJacobians() {
        if (gradients == null || gradients.stream().allMatch(g -> g.jacobians() == null)) {
            return this;
        }
        return new CheckResult(name, location, op, backend, dtype, status, expected, reason, message,
                gradients.stream().map(GradientResult::withoutJacobians).toList(), tolerance, delta, seconds, nodes,
                crossBackend, defaultedAttributes, log, calls);
    }

    /** The same result with another message (e.g. the native error a worker's output adds to it). */
    public CheckResult withMessage(String text) {
        return new CheckResult(name, location, op, backend, dtype, status, expected, reason, text, gradients,
                tolerance, delta, seconds, nodes, crossBackend, defaultedAttributes, log, calls);
    }

    /** The same result with the calls its check made. */
    public CheckResult withCalls(Calls made) {
        return new CheckResult(name, location, op, backend, dtype, status, expected, reason, message, gradients,
                tolerance, delta, seconds, nodes, crossBackend, defaultedAttributes, log, made);
    }

    /** The same result with what the engine printed while it ran. */
    public CheckResult withLog(List<String> lines) {
        return new CheckResult(name, location, op, backend, dtype, status, expected, reason, message, gradients,
                tolerance, delta, seconds, nodes, crossBackend, defaultedAttributes, lines, calls);
    }

    /**
     * The row to show for the whole check: the failing row with the highest score, else the gradient comparison
     * with the highest score; null when there is none. Sanity checks that held have no figures worth showing.
     */
    public GradientResult worstGradient() {
        GradientResult worst = null;
        for (GradientResult g : gradients) {
            if (worst == null || rank(g) > rank(worst)
                    || rank(g) == rank(worst) && !(g.maxScore() <= worst.maxScore())) {
                worst = g;
            }
        }
        return worst;
    }

    /** The rows of one kind, in order. */
    public List<GradientResult> rowsOf(CheckKind kind) {
        return gradients.stream().filter(g -> g.kind() == kind).toList();
    }

    private static int rank(GradientResult g) {
        return !g.verdict().passed() ? 2 : g.kind().isSanityCheck() ? 0 : 1;
    }
}
