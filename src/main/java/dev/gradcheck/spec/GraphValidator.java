package dev.gradcheck.spec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code graph:}, a list of nodes {@code {op, in, out, attrs, error_clip}} over the spec's inputs. Checks what can
 * be checked without running anything: names (unknown, defined twice), cycles, nodes and inputs the output does
 * not depend on, and the clips. Shapes are op/'s business (they need the ops' shape rules).
 */
final class GraphValidator {

    static final List<String> NODE_KEYS = List.of("op", "in", "out", "attrs", "error_clip");
    private static final List<String> CLIP_KEYS = List.of("max", "min");

    private final ValueReader reader;

    GraphValidator(ValueReader reader) {
        this.reader = reader;
    }

    /**
     * @param inputs  the spec's {@code inputs} mapping (for names, positions and input clips), or null
     * @param graph   the spec's {@code graph} entry (its key is where graph-wide problems are reported)
     * @param outputs the spec's {@code output} entries; a graph has one, by default the one node's out that no
     *                other node reads
     * @return the graph, or null when it has errors (already reported)
     */
    GraphSpec read(YamlNode.Entry graph, YamlNode inputs, List<Located<String>> outputs) {
        YamlNode node = graph.value();
        int before = reader.problems.count();
        Map<String, SourcePos> inputNames = inputNames(inputs);
        Map<String, ErrorClip> inputClips = inputClips(inputs);
        List<GraphNode> nodes = nodes(node);
        if (nodes == null || reader.problems.count() > before) {
            return null;
        }
        if (!namesResolve(nodes, inputNames.keySet())) {
            return null;
        }
        List<GraphNode> ordered = topologicalOrder(nodes);
        if (ordered == null) {
            return null;
        }
        String output = output(nodes, inputNames.keySet(), outputs, graph.keyPos());
        if (output == null) {
            return null;
        }
        reportUnused(nodes, inputNames, output);
        return reader.problems.count() > before ? null : new GraphSpec(List.copyOf(ordered), output, inputClips);
    }

    /** Outside a graph spec an input's gradient flows nowhere, so a clip there would silently mean nothing. */
    void rejectInputClips(YamlNode inputs) {
        if (inputs instanceof YamlNode.Mapping m) {
            for (YamlNode.Entry e : m.entries()) {
                if (e.value() instanceof YamlNode.Mapping input) {
                    input.entry("error_clip").ifPresent(c -> reader.problems.add(c.keyPos(),
                            "'error_clip' on input '" + e.key() + "' needs a graph spec ('graph:' instead of 'op:')"));
                }
            }
        }
    }

    private static Map<String, SourcePos> inputNames(YamlNode inputs) {
        Map<String, SourcePos> names = new LinkedHashMap<>();
        if (inputs instanceof YamlNode.Mapping m) {
            m.entries().forEach(e -> names.put(e.key(), e.keyPos()));
        }
        return names;
    }

    private Map<String, ErrorClip> inputClips(YamlNode inputs) {
        Map<String, ErrorClip> clips = new LinkedHashMap<>();
        if (inputs instanceof YamlNode.Mapping m) {
            for (YamlNode.Entry e : m.entries()) {
                if (e.value() instanceof YamlNode.Mapping input) {
                    input.get("error_clip").flatMap(c -> clip(c, ValueReader.child(ValueReader.child("inputs",
                            e.key()), "error_clip"))).ifPresent(c -> clips.put(e.key(), c));
                }
            }
        }
        return Map.copyOf(clips);
    }

    private List<GraphNode> nodes(YamlNode node) {
        Optional<YamlNode.Sequence> seq = reader.sequence(node, "graph");
        if (seq.isEmpty()) {
            return null;
        }
        if (seq.get().items().isEmpty()) {
            reader.problems.add(node.pos(), "'graph' must list at least one node");
            return null;
        }
        List<GraphNode> nodes = new ArrayList<>();
        for (int i = 0; i < seq.get().items().size(); i++) {
            node(seq.get().items().get(i), i + 1, ValueReader.element("graph", i)).ifPresent(nodes::add);
        }
        return nodes;
    }

    private Optional<GraphNode> node(YamlNode item, int number, String path) {
        Optional<YamlNode.Mapping> mapping = reader.mapping(item, path);
        if (mapping.isEmpty()) {
            return Optional.empty();
        }
        YamlNode.Mapping m = mapping.get();
        int before = reader.problems.count();
        reader.rejectUnknownKeys(m, NODE_KEYS, path);
        Optional<Located<String>> op = required(m, "op", path)
                .flatMap(n -> reader.text(n, ValueReader.child(path, "op")).map(s -> new Located<>(s, n.pos())));
        List<Located<String>> in = required(m, "in", path).map(n -> in(n, ValueReader.child(path, "in")))
                .orElse(List.of());
        Optional<Located<String>> out = required(m, "out", path)
                .flatMap(n -> reader.name(n, ValueReader.child(path, "out")).map(s -> new Located<>(s, n.pos())));
        Map<String, Located<Object>> attrs = m.get("attrs").map(n -> new AttrsValidator(reader).read(n))
                .orElse(Map.of());
        ErrorClip clip = m.get("error_clip").flatMap(n -> clip(n, ValueReader.child(path, "error_clip")))
                .orElse(null);
        if (reader.problems.count() > before) {
            return Optional.empty();
        }
        return Optional.of(new GraphNode(number, m.pos(), op.orElseThrow(), in, out.orElseThrow(), attrs, clip));
    }

    private Optional<YamlNode> required(YamlNode.Mapping m, String key, String path) {
        Optional<YamlNode> node = m.get(key);
        if (node.isEmpty()) {
            reader.problems.add(m.pos(), "'" + path + "' is missing required key '" + key + "'");
        }
        return node;
    }

    private List<Located<String>> in(YamlNode node, String path) {
        Optional<YamlNode.Sequence> seq = reader.sequence(node, path);
        if (seq.isEmpty()) {
            return List.of();
        }
        if (seq.get().items().isEmpty()) {
            reader.problems.add(node.pos(), "'" + path + "' must name at least one variable");
        }
        List<Located<String>> names = new ArrayList<>();
        for (int i = 0; i < seq.get().items().size(); i++) {
            YamlNode item = seq.get().items().get(i);
            reader.name(item, ValueReader.element(path, i)).ifPresent(s -> names.add(new Located<>(s, item.pos())));
        }
        return List.copyOf(names);
    }

    private Optional<ErrorClip> clip(YamlNode node, String path) {
        Optional<YamlNode.Mapping> mapping = reader.mapping(node, path);
        if (mapping.isEmpty()) {
            return Optional.empty();
        }
        YamlNode.Mapping m = mapping.get();
        int before = reader.problems.count();
        reader.rejectUnknownKeys(m, CLIP_KEYS, path);
        Optional<Double> max = m.get("max").flatMap(n -> reader.number(n, ValueReader.child(path, "max")));
        if (m.get("max").isEmpty()) {
            reader.problems.add(m.pos(), "'" + path + "' is missing required key 'max'");
        }
        Double min = m.get("min").flatMap(n -> reader.number(n, ValueReader.child(path, "min"))).orElse(null);
        if (reader.problems.count() > before) {
            return Optional.empty();
        }
        ErrorClip clip = new ErrorClip(min, max.orElseThrow(), node.pos());
        String got = ", got min " + clip.lower() + ", max " + clip.upper() + (min == null ? " (min defaults to -max)"
                : "");
        if (!(clip.lower() < clip.upper())) {
            reader.problems.add(node.pos(), "'" + path + "' needs min < max" + got);
            return Optional.empty();
        }
        if (!(clip.lower() <= 0 && 0 <= clip.upper())) { // else the zero-gradient sanity check always fails
            reader.problems.add(node.pos(), "'" + path + "' must contain 0 (min <= 0 <= max)" + got
                    + ": a zero gradient has to stay zero");
            return Optional.empty();
        }
        return Optional.of(clip);
    }

    /** Every out defined once and not shadowing an input; every in defined somewhere. */
    private boolean namesResolve(List<GraphNode> nodes, Set<String> inputs) {
        int before = reader.problems.count();
        Map<String, GraphNode> defined = new HashMap<>();
        for (GraphNode n : nodes) {
            String out = n.out().value();
            if (inputs.contains(out)) {
                reader.problems.add(n.out().pos(), "'" + out + "' is already an input; a node's out needs a new name");
            } else if (defined.containsKey(out)) {
                reader.problems.add(n.out().pos(), "'" + out + "' is already the out of "
                        + defined.get(out).describe());
            } else {
                defined.put(out, n);
            }
        }
        Set<String> known = new LinkedHashSet<>(inputs);
        nodes.forEach(n -> known.add(n.out().value()));
        for (GraphNode n : nodes) {
            for (Located<String> in : n.in()) {
                if (!known.contains(in.value())) {
                    reader.problems.add(in.pos(), "unknown name '" + in.value() + "' in " + n.describe()
                            + Suggestions.hint(in.value(), known, "known"));
                }
            }
        }
        return reader.problems.count() == before;
    }

    /**
     * Nodes in written order as far as possible: each pass takes the first node whose node inputs are all placed.
     * When none can be placed, the nodes left hold a cycle; it is reported at the node written first in it.
     */
    private List<GraphNode> topologicalOrder(List<GraphNode> nodes) {
        Map<String, GraphNode> producers = new HashMap<>();
        nodes.forEach(n -> producers.put(n.out().value(), n));
        List<GraphNode> ordered = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        List<GraphNode> left = new ArrayList<>(nodes);
        while (!left.isEmpty()) {
            GraphNode next = left.stream().filter(n -> n.in().stream().map(Located::value)
                    .allMatch(v -> !producers.containsKey(v) || placed.contains(v))).findFirst().orElse(null);
            if (next == null) {
                reportCycle(left, producers);
                return null;
            }
            ordered.add(next);
            placed.add(next.out().value());
            left.remove(next);
        }
        return ordered;
    }

    /** Walks back from the first stuck node through stuck producers until a variable repeats. */
    private void reportCycle(List<GraphNode> stuck, Map<String, GraphNode> producers) {
        List<GraphNode> path = new ArrayList<>();
        GraphNode at = stuck.get(0);
        while (!path.contains(at)) {
            path.add(at);
            GraphNode current = at;
            at = current.in().stream().map(in -> producers.get(in.value())).filter(stuck::contains)
                    .findFirst().orElseThrow();
        }
        List<GraphNode> cycle = new ArrayList<>(path.subList(path.indexOf(at), path.size()));
        java.util.Collections.reverse(cycle); // producer before consumer reads like data flow
        GraphNode first = cycle.stream().min(java.util.Comparator.comparingInt(GraphNode::number)).orElseThrow();
        java.util.Collections.rotate(cycle, -cycle.indexOf(first));
        StringBuilder names = new StringBuilder();
        cycle.forEach(n -> names.append(n.out().value()).append(" -> "));
        names.append(cycle.get(0).out().value());
        reader.problems.add(first.pos(), "cycle in the graph: " + names + " (" + first.describe()
                + " depends on its own out)");
    }

    private String output(List<GraphNode> nodes, Set<String> inputs, List<Located<String>> outputs,
            SourcePos graphKey) {
        if (outputs.isEmpty()) {
            return defaultOutput(nodes, graphKey);
        }
        if (outputs.size() > 1) {
            reader.problems.add(outputs.get(1).pos(), "a graph spec checks one output; name one node's out");
            return null;
        }
        Located<String> out = outputs.get(0);
        List<String> outs = nodes.stream().map(n -> n.out().value()).toList();
        if (outs.contains(out.value())) {
            return out.value();
        }
        reader.problems.add(out.pos(), inputs.contains(out.value())
                ? "output '" + out.value() + "' is an input; a graph's output must be a node's out"
                : "output '" + out.value() + "' is not a node's out" + Suggestions.hint(out.value(), outs, "outs"));
        return null;
    }

    /**
     * Left out, the output is the one node whose out no other node reads: nodes may be written in any order, so the
     * last one written is no guide. With several such nodes the choice is the user's.
     */
    private String defaultOutput(List<GraphNode> nodes, SourcePos graphKey) {
        Set<String> read = new HashSet<>();
        nodes.forEach(n -> n.in().forEach(in -> read.add(in.value())));
        List<String> unread = nodes.stream().map(n -> n.out().value()).filter(out -> !read.contains(out)).toList();
        if (unread.size() == 1) {
            return unread.get(0);
        }
        reader.problems.add(graphKey, "the graph has " + unread.size() + " nodes whose out no other node reads ("
                + String.join(", ", unread) + "); name the one to check with 'output:'");
        return null;
    }

    /** A node or input the output does not depend on is a mistake: its gradient would go unchecked. */
    private void reportUnused(List<GraphNode> nodes, Map<String, SourcePos> inputs, String output) {
        Map<String, GraphNode> producers = new HashMap<>();
        nodes.forEach(n -> producers.put(n.out().value(), n));
        Set<String> used = new HashSet<>();
        List<String> todo = new ArrayList<>(List.of(output));
        while (!todo.isEmpty()) {
            String v = todo.remove(todo.size() - 1);
            if (used.add(v) && producers.containsKey(v)) {
                producers.get(v).in().forEach(in -> todo.add(in.value()));
            }
        }
        for (GraphNode n : nodes) {
            if (!used.contains(n.out().value())) {
                reader.problems.add(n.pos(), n.describe() + " is unused: output '" + output
                        + "' does not depend on it");
            }
        }
        inputs.forEach((name, pos) -> {
            if (!used.contains(name)) {
                reader.problems.add(pos, "input '" + name + "' is unused: output '" + output
                        + "' does not depend on it");
            }
        });
    }
}
