package dev.gradcheck.spec;

import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Mode;
import dev.gradcheck.result.Stencil;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One YAML document's tree to an {@link OpSpec}, or to every error found in it. */
final class SpecValidator {

    static final List<String> KEYS = List.of("name", "op", "attrs", "inputs", "output", "check", "no_grad", "delta",
            "tolerance", "mode", "order", "stencil", "max_elements", "nondet_tol", "resample", "backends", "seed", "expect",
            "reason", "graph", "timeout", "tags", "mask", "sample_seed", "compress", "layer", "training", "network");

    static final long DEFAULT_SEED = 7;
    static final List<Engine> DEFAULT_BACKENDS = List.of(Engine.DEFAULT);


    private final Problems problems = new Problems();
    private final ValueReader reader = new ValueReader(problems);

    private SpecValidator() {}

    /** @param defaultName the name used when the document has no valid {@code name} */
    static LoadedSpec validate(YamlTreeReader.Document doc, String defaultName) {
        return new SpecValidator().run(doc, defaultName);
    }

    private LoadedSpec run(YamlTreeReader.Document doc, String defaultName) {
        problems.addAll(doc.errors());
        YamlNode root = doc.root();
        if (!(root instanceof YamlNode.Mapping m)) {
            problems.add(root.pos(), "a spec must be a mapping of keys (op, inputs, ...), got " + root.describe());
            return LoadedSpec.invalid(root.pos(), defaultName, problems.sorted());
        }
        reader.rejectUnknownKeys(m, KEYS, "");
        String name = m.get("name").flatMap(n -> reader.text(n, "name")).orElse(defaultName);
        boolean isLayer = m.entry("layer").isPresent();
        Located<String> network = m.get("network").flatMap(n -> reader.text(n, "network")
                .map(t -> new Located<>(t, n.pos()))).orElse(null);
        LayerValidator layers = new LayerValidator(reader, problems);
        Located<String> op = m.entry("network").isPresent() ? layers.networkOp(m)
                : m.entry("graph").isPresent() ? graphOp(m) : isLayer ? layers.type(m) : required(m, "op")
                .flatMap(n -> reader.text(n, "op").map(s -> new Located<>(s, n.pos()))).orElse(null);
        Map<String, Located<Object>> attrs = m.get("attrs").map(n -> new AttrsValidator(reader).read(n))
                .orElse(Map.of());
        InputsValidator.Result inputs = required(m, "inputs").map(n -> new InputsValidator(reader).read(n))
                .orElse(InputsValidator.Result.NONE);
        List<Located<String>> outputs = m.get("output").map(n -> new OutputsValidator(reader).read(n))
                .orElse(List.of());
        SourcePos inputsPos = m.entry("inputs").map(YamlNode.Entry::keyPos).orElse(m.pos());
        CheckSelection.Result selection = new CheckSelection(reader, inputs, isLayer || network != null)
                .read(m.get("check").orElse(null), m.get("no_grad").orElse(null), inputsPos);
        Double delta = m.get("delta").flatMap(this::delta).orElse(null);
        Tolerance tolerance = m.get("tolerance").flatMap(n -> new ToleranceValidator(reader).read(n)).orElse(null);
        Mode mode = m.get("mode").map(this::mode).orElse(Mode.FULL);
        int order = m.get("order").map(this::order).orElse(1);
        CheckOptions options = options(m)
                .withSampleSeed(m.get("sample_seed").flatMap(n -> reader.integer(n, "sample_seed")).orElse(null));
        options = mask(m, inputs, selection.check(), options);
        List<Engine> backends = m.get("backends").map(this::backends).orElse(DEFAULT_BACKENDS);
        long seed = m.get("seed").flatMap(n -> reader.integer(n, "seed")).orElse(DEFAULT_SEED);
        var expect = new ExpectationValidator(reader, problems).read(m);
        GraphSpec graph = graph(m, outputs);
        Double timeout = m.get("timeout").flatMap(n -> within(n, "timeout", CheckOptions.MIN_TIMEOUT,
                CheckOptions.MAX_TIMEOUT, " seconds")).orElse(null);
        List<String> tags = m.get("tags").map(n -> new TagsValidator(reader).read(n)).orElse(List.of());
        layers.read(m, op, selection.params(), inputs.specs());

        if (!problems.isEmpty()) {
            NamedOp named = op == null || m.entry("graph").isPresent() || isLayer || network != null ? null
                    : new NamedOp(op, attrs);
            return new LoadedSpec(m.pos(), name, null, problems.sorted(), tags, named);
        }
        OpSpec spec = new OpSpec(name, m.pos(), op, attrs, inputs.specs(), outputs, selection.check(),
                selection.noGrad(), delta, tolerance, mode, order, options, backends, seed, expect, graph, timeout, layers.spec(),
                network);
        return LoadedSpec.valid(spec, tags);
    }

    /** A graph spec's op is "graph", at the {@code graph} key; its nodes name the ops and carry the attrs. */
    private Located<String> graphOp(YamlNode.Mapping m) {
        for (String key : List.of("op", "attrs")) {
            m.entry(key).ifPresent(e -> problems.add(e.keyPos(), "'" + key + "' does not go with 'graph': in a"
                    + " graph spec each node names its op and attrs"));
        }
        return new Located<>("graph", m.entry("graph").orElseThrow().keyPos());
    }

    private GraphSpec graph(YamlNode.Mapping m, List<Located<String>> outputs) {
        GraphValidator graphs = new GraphValidator(reader);
        YamlNode inputs = m.get("inputs").orElse(null);
        if (m.get("graph").isEmpty()) {
            graphs.rejectInputClips(inputs);
            return null;
        }
        return graphs.read(m.entry("graph").get(), inputs, outputs);
    }

    private Optional<YamlNode> required(YamlNode.Mapping m, String key) {
        Optional<YamlNode> node = m.get(key);
        if (node.isEmpty()) {
            problems.add(m.pos(), "missing required key '" + key + "'");
        }
        return node;
    }

    private Optional<Double> delta(YamlNode node) {
        return within(node, "delta", CheckOptions.MIN_DELTA, CheckOptions.MAX_DELTA, "");
    }

    /** A number in [min, max] (its range's check in CheckOptions says the same), else a problem naming the range. */
    private Optional<Double> within(YamlNode node, String key, double min, double max, String unit) {
        Optional<Double> value = reader.number(node, key);
        if (value.isPresent() && !(value.get() >= min && value.get() <= max)) {
            problems.add(node.pos(), "'" + key + "' must be between " + min + " and " + (long) max + unit + ", got "
                    + ((YamlNode.Scalar) node).text());
            return Optional.empty();
        }
        return value;
    }

    private Mode mode(YamlNode node) {
        Optional<String> name = reader.string(node, "mode");
        Optional<Mode> mode = name.flatMap(Mode::fromSpecName);
        if (name.isPresent() && mode.isEmpty()) {
            problems.add(node.pos(), "unknown mode '" + name.get() + "'" + Suggestions.choices(name.get(),
                    Mode.specNames()));
        }
        return mode.orElse(Mode.FULL); // a spec with an unknown mode is invalid: its placeholder never runs
    }

    private int order(YamlNode node) {
        Optional<Long> order = reader.integer(node, "order");
        if (order.isPresent() && !CheckOptions.validOrder(order.get())) {
            problems.add(node.pos(), "unknown order " + order.get() + "; valid: 1, 2");
            return 1;
        }
        return order.map(Long::intValue).orElse(1);
    }

    private CheckOptions options(YamlNode.Mapping m) {
        CheckOptions d = CheckOptions.DEFAULT;
        Stencil stencil = m.get("stencil").flatMap(n -> reader.string(n, "stencil").flatMap(s -> {
            if (Stencil.fromSpecName(s).isEmpty()) {
                problems.add(n.pos(), "unknown stencil '" + s + "'" + Suggestions.choices(s, Stencil.specNames()));
                return Optional.empty();
            }
            return Stencil.fromSpecName(s);
        })).orElse(d.stencil());
        Integer maxElements = m.get("max_elements").flatMap(n -> reader.integer(n, "max_elements").flatMap(v -> {
            if (!CheckOptions.validMaxElements(v)) {
                problems.add(n.pos(), "'max_elements' must be a positive integer, got " + v);
                return Optional.empty();
            }
            return Optional.of(v.intValue());
        })).orElse(d.maxElements());
        double nondetTol = m.get("nondet_tol").flatMap(n -> reader.number(n, "nondet_tol").flatMap(v -> {
            if (!CheckOptions.validNondetTol(v)) {
                problems.add(n.pos(), "'nondet_tol' must be >= 0, got " + ((YamlNode.Scalar) n).text());
                return Optional.empty();
            }
            return Optional.of(v);
        })).orElse(d.nondetTol());
        boolean resample = m.get("resample").flatMap(n -> reader.bool(n, "resample")).orElse(d.resample());
        boolean compress = m.get("compress").flatMap(n -> reader.bool(n, "compress")).orElse(d.compress());
        return new CheckOptions(stencil, maxElements, nondetTol, resample).withCompress(compress)
                .withThreads(d.threads());
    }

    /** The mask's input sides are checked against the inputs that validated; its output sides when the op has run. */
    private CheckOptions mask(YamlNode.Mapping m, InputsValidator.Result inputs, List<String> check,
                              CheckOptions options) {
        Optional<YamlNode> node = m.get("mask");
        if (node.isEmpty()) {
            return options;
        }
        Map<String, InputSpec> byName = new java.util.LinkedHashMap<>();
        inputs.specs().forEach(in -> byName.put(in.name(), in));
        JacobianMask mask = new MaskValidator(reader, inputs.names()).read(node.get(), byName, check);
        return options.withMask(mask);
    }

    private List<Engine> backends(YamlNode node) {
        Optional<YamlNode.Sequence> seq = reader.sequence(node, "backends");
        if (seq.isEmpty()) {
            return DEFAULT_BACKENDS;
        }
        if (seq.get().items().isEmpty()) {
            problems.add(node.pos(), "'backends' is empty; leave it out to run on " + Engine.DEFAULT.specName());
        }
        List<Engine> backends = new ArrayList<>();
        List<YamlNode> items = seq.get().items();
        for (int i = 0; i < items.size(); i++) {
            YamlNode item = items.get(i);
            reader.string(item, ValueReader.element("backends", i)).ifPresent(b -> {
                Optional<Engine> engine = Engine.fromSpecName(b);
                if (engine.isEmpty()) {
                    problems.add(item.pos(), "unknown backend '" + b + "'" + Suggestions.choices(b,
                            Engine.specNames()));
                } else if (backends.contains(engine.get())) {
                    problems.add(item.pos(), "backend '" + b + "' appears twice");
                } else {
                    backends.add(engine.get());
                }
            });
        }
        return List.copyOf(backends);
    }
}
