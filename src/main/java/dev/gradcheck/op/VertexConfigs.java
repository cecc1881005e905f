package dev.gradcheck.op;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.LayerSpec;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.SourcePos;
import dev.gradcheck.spec.Suggestions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.graph.GraphVertex;
import org.deeplearning4j.nn.conf.layers.samediff.SameDiffVertex;
import org.deeplearning4j.nn.weights.WeightInit;
import org.nd4j.shade.jackson.databind.DeserializationFeature;
import org.nd4j.shade.jackson.databind.JsonMappingException;
import org.nd4j.shade.jackson.databind.ObjectMapper;
import org.nd4j.shade.jackson.databind.exc.UnrecognizedPropertyException;
import org.nd4j.shade.jackson.databind.node.ObjectNode;

/**
 * A layer spec whose type is a ComputationGraph vertex that is no layer (MergeVertex, ElementWiseVertex, ...):
 * its configuration read through DL4J's JSON, each option the JSON field of that name (a vertex's constructor
 * arguments are its JSON's fields: {@code op: Add}, {@code from: 0, to: 2}), a mapping with a {@code type}
 * (PreprocessorVertex's {@code preProcessor}) an input preprocessor. An unknown option is DL4J's refusal, at it.
 */
final class VertexConfigs {

    /** Where DL4J keeps its vertex configurations; a simple type name is looked up in each. */
    private static final List<String> PACKAGES = List.of("org.deeplearning4j.nn.conf.graph.",
            "org.deeplearning4j.nn.conf.graph.rnn.");
    private static final String WEIGHT_INIT = "weightInit";
    private static final String PREPROCESSORS = "org.deeplearning4j.nn.conf.preprocessor.";
    private static final ObjectMapper STRICT = NeuralNetConfiguration.mapper().copy()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private VertexConfigs() {}

    /** The vertex configuration class a type names, if it names one (else it is a layer's, or nothing). */
    static Optional<Class<? extends GraphVertex>> type(String name, ClassLoader loader) {
        List<String> candidates = name.contains(".") ? List.of(name)
                : PACKAGES.stream().map(p -> p + name).toList();
        for (String candidate : candidates) {
            try {
                Class<?> c = Class.forName(candidate, false, loader);
                if (GraphVertex.class.isAssignableFrom(c)) {
                    return Optional.of(c.asSubclass(GraphVertex.class));
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // the next package
            }
        }
        return Optional.empty();
    }

    static boolean isVertex(LayerSpec spec, ClassLoader loader) {
        return spec != null && type(spec.type().value(), loader).isPresent();
    }

    /** The vertex configuration the spec writes. */
    static GraphVertex read(LayerSpec spec, ClassLoader loader) throws InvalidSpecException {
        Class<? extends GraphVertex> type = type(spec.type().value(), loader).orElseThrow();
        ObjectNode json = json(type.getName(), spec.options(), loader);
        // the classes "@class" names found in the loader the type came from (a user's vertex in a plugin path)
        ObjectMapper mapper = STRICT.copy();
        mapper.setTypeFactory(mapper.getTypeFactory().withClassLoader(loader));
        try {
            return mapper.treeToValue(json, GraphVertex.class);
        } catch (UnrecognizedPropertyException e) {
            List<String> known = e.getKnownPropertyIds().stream().map(String::valueOf).toList();
            throw new InvalidSpecException(blamed(spec, e), spec.type().value() + ": unknown option '"
                    + e.getPropertyName() + "'" + Suggestions.choices(e.getPropertyName(), known));
        } catch (JsonMappingException e) {
            throw new InvalidSpecException(blamed(spec, e), spec.type().value() + ": DL4J cannot read "
                    + (e.getPath().isEmpty() ? "its options" : "option '" + e.getPath().get(0).getFieldName() + "'")
                    + ": " + e.getOriginalMessage().lines().findFirst().orElse(""));
        } catch (Exception e) {
            throw new InvalidSpecException(spec.type().pos(), spec.type().value() + ": DL4J cannot read the"
                    + " options: " + GraphBuilder.firstLine(e));
        }
    }

    /**
     * A vertex configuration's options, as a vertex spec writes them: its JSON's fields that DL4J's JSON reads back
     * (a field it writes and does not read, a derived getter's, is left out), nested values as plain maps and lists
     * ({@code "@class"} naming a nested preprocessor or vertex).
     */
    static Map<String, Object> optionsOf(GraphVertex config, SourcePos at) throws InvalidSpecException {
        ObjectMapper mapper = STRICT.copy();
        mapper.setTypeFactory(mapper.getTypeFactory().withClassLoader(config.getClass().getClassLoader()));
        ObjectNode json = mapper.valueToTree(config);
        for (int tries = json.size(); tries > 0; tries--) {
            try {
                mapper.treeToValue(json, GraphVertex.class);
                break;
            } catch (UnrecognizedPropertyException e) {
                json.remove(e.getPropertyName()); // written, not read back: no option
            } catch (Exception e) {
                throw new InvalidSpecException(at, config.getClass().getSimpleName()
                        + ": DL4J cannot read back its own JSON: " + GraphBuilder.firstLine(e));
            }
        }
        json.remove("@class");
        Map<String, Object> options = new java.util.LinkedHashMap<>();
        json.fields().forEachRemaining(f -> options.put(f.getKey(), mapper.convertValue(f.getValue(), Object.class)));
        return options;
    }

    private static ObjectNode json(String className, Map<String, Located<Object>> options, ClassLoader loader)
            throws InvalidSpecException {
        ObjectNode json = STRICT.createObjectNode().put("@class", className);
        if (!options.containsKey(WEIGHT_INIT) && type(className, loader).filter(SameDiffVertex.class::isAssignableFrom)
                .isPresent()) {
            json.put(WEIGHT_INIT, WeightInit.XAVIER.name()); // its builder's; its JSON constructor leaves none
        }
        for (Map.Entry<String, Located<Object>> option : options.entrySet()) {
            if (option.getValue().value() instanceof LayerSpec inner) { // FrozenVertex's vertex, or a preprocessor
                Optional<Class<? extends GraphVertex>> vertex = type(inner.type().value(), loader);
                String nested = vertex.isPresent() ? vertex.get().getName() : preprocessor(inner.type(), loader);
                json.set(option.getKey(), json(nested, inner.options(), loader));
            } else {
                json.set(option.getKey(), STRICT.valueToTree(option.getValue().value()));
            }
        }
        return json;
    }

    /** An input preprocessor's class, by its simple name in DL4J's package or its full name (or a vertex's). */
    private static String preprocessor(Located<String> name, ClassLoader loader) throws InvalidSpecException {
        String full = name.value().contains(".") ? name.value() : PREPROCESSORS + name.value();
        try {
            if (InputPreProcessor.class.isAssignableFrom(Class.forName(full, false, loader))) {
                return full;
            }
        } catch (ClassNotFoundException | LinkageError e) {
            // said below
        }
        throw new InvalidSpecException(name.pos(), "unknown DL4J input preprocessor or vertex '" + name.value()
                + "' (a class of " + PREPROCESSORS + "*, e.g. CnnToFeedForwardPreProcessor; FrozenVertex's underlying"
                + " is a vertex: ElementWiseVertex, ...)");
    }

    private static SourcePos blamed(LayerSpec spec, JsonMappingException e) {
        for (JsonMappingException.Reference ref : e.getPath()) {
            Located<Object> option = ref.getFieldName() == null ? null : spec.options().get(ref.getFieldName());
            if (option != null) {
                return option.pos();
            }
        }
        return spec.type().pos();
    }
}
