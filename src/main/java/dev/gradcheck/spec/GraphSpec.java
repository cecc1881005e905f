package dev.gradcheck.spec;

import java.util.List;
import java.util.Map;

/**
 * The {@code graph:} of a spec, validated: every name is defined once, there is no cycle, and every node and
 * input contributes to the output.
 *
 * @param nodes      in an order where each node comes after the nodes it reads (written order where possible)
 * @param output     the variable checked: one node's {@code out}
 * @param inputClips error clips written on spec inputs, by input name
 */
public record GraphSpec(List<GraphNode> nodes, String output, Map<String, ErrorClip> inputClips) {

    public GraphNode producer(String variable) {
        return nodes.stream().filter(n -> n.out().value().equals(variable)).findFirst().orElse(null);
    }

    public boolean hasClips() {
        return !inputClips.isEmpty() || nodes.stream().anyMatch(n -> n.errorClip() != null);
    }
}
