package dev.gradcheck.result;

/**
 * One node of a failing graph check, checked on its own (its inputs captured from the graph's forward pass).
 *
 * @param node        1-based position in the spec's {@code graph:} list
 * @param op          the node's operator
 * @param out         the variable it defines
 * @param location    {@code file:line:col} of the node
 * @param status      PASSED when its local backward agrees, FAILED on a mismatch, ERROR or INVALID when its own
 *                    check could not run
 * @param worst       its worst gradient block, or null when its check never compared
 * @param message     what went wrong for ERROR / INVALID, else null
 */
public record NodeFinding(int node, String op, String out, String location, Status status, GradientResult worst,
                          String message) {

    /** Whether this node's own backward is wrong (or could not be checked; one skipped for a reason is not). */
    public boolean wrong() {
        return status != Status.PASSED && status != Status.SKIPPED;
    }

    /** "node 3 (cumsum, out=h2)". */
    public String describe() {
        return "node " + node + " (" + op + ", out=" + out + ")";
    }
}
