package dev.gradcheck.run;

import dev.gradcheck.spec.GraphNode;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecIds;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What {@code -k} matches a spec by, as pytest's {@code -k} matches a test by its name and module: the spec's name,
 * its op (each node's op for a graph), its file as given and relative to the project root. A keyword holds when it
 * is a substring of one of them, ignoring case: {@code -k cumprod} takes {@code cumprod-axis0} and every spec of
 * reductions/cumulative.yaml.
 *
 * @param texts the spec's texts, lower case
 */
public record SpecKeywords(List<String> texts) {

    public static SpecKeywords of(LoadedSpec spec, SpecIds ids) {
        Set<String> texts = new LinkedHashSet<>();
        texts.add(spec.name());
        texts.addAll(ops(spec));
        texts.add(spec.pos().file());
        texts.add(ids.relativeFile(spec.pos().file()));
        return new SpecKeywords(texts.stream().map(t -> t.toLowerCase(Locale.ROOT)).toList());
    }

    /** Whether {@code keyword} is part of the name, an op or the file, ignoring case. */
    public boolean contains(String keyword) {
        String k = keyword.toLowerCase(Locale.ROOT);
        return texts.stream().anyMatch(t -> t.contains(k));
    }

    /** The spec's op names: its op, or its graph's nodes' ops; for an invalid one-op spec, the op it names. */
    static List<String> ops(LoadedSpec spec) {
        List<String> ops = new ArrayList<>();
        if (spec.spec() != null && spec.spec().graph() != null) {
            spec.spec().graph().nodes().stream().map(GraphNode::op).forEach(o -> ops.add(o.value()));
        } else if (spec.spec() != null) {
            ops.add(spec.spec().op().value());
        } else if (spec.named() != null && spec.named().op() != null) {
            ops.add(spec.named().op().value());
        }
        return ops;
    }
}
