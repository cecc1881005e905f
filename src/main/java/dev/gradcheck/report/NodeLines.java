package dev.gradcheck.report;

import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.NodeFinding;
import java.util.ArrayList;
import java.util.List;

/**
 * The table's lines for a failing graph's nodes, each checked on its own: one line per node whose own backward
 * is wrong, or one line saying that every node is right alone (then the graph's combination is what is wrong);
 * then one per node skipped with its reason (a network's FrozenLayer), which a passing network shows too.
 */
final class NodeLines {

    private NodeLines() {}

    static List<String> of(List<NodeFinding> nodes) {
        if (nodes.isEmpty()) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        for (NodeFinding n : nodes) {
            if (n.wrong()) { // a skipped node is not wrong: listed below
                lines.add(line(n));
            }
        }
        if (lines.isEmpty()) {
            lines.add("every node's own backward agrees (" + nodes.size() + " checked on their own): the mismatch"
                    + " is in how the graph combines them (summed paths or clips)");
        }
        lines.addAll(skipped(nodes));
        return lines;
    }

    /** "node 0 (FrozenLayer, out=frozen): skipped: why": a node not checked, which a reader would look for. */
    static List<String> skipped(List<NodeFinding> nodes) {
        return nodes.stream().filter(n -> n.status() == dev.gradcheck.result.Status.SKIPPED)
                .map(n -> n.describe() + ": skipped" + (n.message() == null ? "" : ": " + n.message())).toList();
    }

    /** "node 3 (cumsum, out=h2): backward mismatch, max rel err 1.00e+00 (d0/dx)". */
    static String line(NodeFinding n) {
        GradientResult g = n.worst();
        return switch (n.status()) {
            case FAILED -> n.describe() + ": backward " + g.verdict().reportName() + ", max rel err "
                    + Numbers.sci(g.maxRelError()) + ", max abs err " + Numbers.sci(g.maxAbsError()) + " ("
                    + GradientText.name(g) + ")";
            default -> n.describe() + ": could not be checked on its own (" + n.status().jsonName() + ")"
                    + DetailLines.messageLines(n.message()).stream().findFirst().map(m -> ": " + m).orElse("");
        };
    }
}
