package dev.gradcheck.spec;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code layer}, {@code network} and {@code training} keys: a layer spec's type, as the spec's op, and its
 * options, read as attributes are (their meaning is DL4J's, checked in op/ where DL4J is), or a network spec's.
 */
final class LayerValidator {

    private final ValueReader reader;
    private final Problems problems;
    /** What {@link #read} found: null for a spec that is not a layer's or a network's, or whose layer is invalid. */
    private LayerSpec spec;

    LayerValidator(ValueReader reader, Problems problems) {
        this.reader = reader;
        this.problems = problems;
    }

    /** A network spec's op is "network", at the {@code network} key; the network holds the layers. */
    Located<String> networkOp(YamlNode.Mapping m) {
        for (String key : List.of("op", "attrs", "graph", "layer")) {
            m.entry(key).ifPresent(e -> problems.add(e.keyPos(), "'" + key + "' does not go with 'network': a"
                    + " network spec checks the saved network's own layers"));
        }
        return new Located<>("network", m.entry("network").orElseThrow().keyPos());
    }

    /**
     * A layer spec's op is its layer's {@code type}: a DL4J configuration class, whose options are read in op/
     * where DL4J is. Only a layer spec takes {@code training}.
     */
    Located<String> type(YamlNode.Mapping m) {
        for (String key : List.of("op", "attrs", "graph")) {
            m.entry(key).ifPresent(e -> problems.add(e.keyPos(), "'" + key + "' does not go with 'layer': a layer"
                    + " spec names its layer's type and options under 'layer'"));
        }
        YamlNode node = m.get("layer").orElseThrow();
        if (!(node instanceof YamlNode.Mapping lm)) {
            problems.add(node.pos(), "'layer' must be a mapping: {type: ConvolutionLayer, nIn: 3, ...}, got "
                    + node.describe());
            return null;
        }
        Optional<YamlNode> type = lm.get("type");
        if (type.isEmpty()) {
            problems.add(lm.pos(), "'layer' is missing required key 'type' (a DL4J layer class, e.g."
                    + " ConvolutionLayer)");
            return null;
        }
        return reader.text(type.get(), "layer.type").map(t -> new Located<>(t, type.get().pos())).orElse(null);
    }

    /** The layer or network, and the masks among its inputs ({@link MaskInputs}); nothing for an op's spec. */
    void read(YamlNode.Mapping m, Located<String> type, LayerSpec.Selection params, List<InputSpec> inputs) {
        spec = layer(m, type, params);
        boolean network = m.entry("network").isPresent();
        if (network || m.entry("layer").isPresent()) {
            new MaskInputs(problems).check(inputs, network);
        }
    }

    LayerSpec spec() {
        return spec;
    }

    private LayerSpec layer(YamlNode.Mapping m, Located<String> type, LayerSpec.Selection params) {
        Optional<YamlNode> node = m.get("layer");
        Optional<Boolean> training = m.get("training").flatMap(n -> reader.bool(n, "training"));
        if (node.isEmpty() || m.entry("network").isPresent()) {
            if (m.entry("network").isEmpty()) {
                m.entry("training").ifPresent(e -> problems.add(e.keyPos(), "'training' goes with 'layer' or"
                        + " 'network' only: an op has no training mode"));
                return null;
            }
            return type == null ? null : new LayerSpec(type, Map.of(), training.orElse(true), params, List.of());
        }
        if (type == null || !(node.get() instanceof YamlNode.Mapping)) {
            return null; // type() said why
        }
        return new LayerSpec(type, options((YamlNode.Mapping) node.get(), "layer"), training.orElse(true), params,
                List.of());
    }

    /**
     * A layer's options: values as attributes are, and a mapping with a {@code type} (the layer a wrapper wraps:
     * Bidirectional's {@code rnnLayer}, LastTimeStep's {@code underlying}) as a layer of its own.
     */
    private Map<String, Located<Object>> options(YamlNode.Mapping layer, String path) {
        List<String> skip = new java.util.ArrayList<>(List.of("type"));
        Map<String, Located<Object>> wrapped = new java.util.LinkedHashMap<>();
        for (YamlNode.Entry e : layer.entries()) {
            if (e.value() instanceof YamlNode.Mapping inner && !e.key().equals("type")) {
                skip.add(e.key());
                String innerPath = ValueReader.child(path, e.key());
                Optional<YamlNode> type = inner.get("type");
                if (type.isEmpty()) {
                    problems.add(inner.pos(), "'" + innerPath + "' is missing required key 'type' (the wrapped"
                            + " layer's DL4J class, e.g. LSTM)");
                    continue;
                }
                reader.text(type.get(), innerPath + ".type").ifPresent(t -> wrapped.put(e.key(), new Located<>(
                        new LayerSpec(new Located<>(t, type.get().pos()), options(inner, innerPath), true,
                                LayerSpec.Selection.DEFAULT, List.of()), inner.pos())));
            }
        }
        Map<String, Located<Object>> options = new java.util.LinkedHashMap<>(
                new AttrsValidator(reader).read(layer, path, skip));
        options.putAll(wrapped);
        return java.util.Collections.unmodifiableMap(options);
    }
}
