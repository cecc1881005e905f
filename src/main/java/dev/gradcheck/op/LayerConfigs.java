package dev.gradcheck.op;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.LayerSpec;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.SourcePos;
import dev.gradcheck.spec.Suggestions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.conf.layers.samediff.AbstractSameDiffLayer;
import org.deeplearning4j.nn.weights.WeightInit;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.lossfunctions.LossFunctions;
import org.nd4j.shade.jackson.databind.BeanDescription;
import org.nd4j.shade.jackson.databind.DeserializationFeature;
import org.nd4j.shade.jackson.databind.JsonMappingException;
import org.nd4j.shade.jackson.databind.ObjectMapper;
import org.nd4j.shade.jackson.databind.SerializationConfig;
import org.nd4j.shade.jackson.databind.module.SimpleModule;
import org.nd4j.shade.jackson.databind.ser.BeanPropertyWriter;
import org.nd4j.shade.jackson.databind.ser.BeanSerializerModifier;
import org.nd4j.shade.jackson.databind.node.ObjectNode;

/**
 * A layer spec's {@code layer:} as a DL4J layer configuration, through DL4J's own JSON: the configuration its
 * builder makes with no options (DL4J's defaults), serialised, each option written over the field of that name
 * (case aside: {@code nIn} is the JSON's {@code nin}), read back by DL4J's mapper. So every option DL4J's JSON
 * takes works, and an unknown option or a value of the wrong kind is DL4J's own refusal, at the option.
 */
final class LayerConfigs {

    /** Where DL4J keeps its layer configurations; a simple type name is looked up in each, in this order. */
    static final List<String> PACKAGES = List.of("org.deeplearning4j.nn.conf.layers.",
            "org.deeplearning4j.nn.conf.layers.convolutional.", "org.deeplearning4j.nn.conf.layers.recurrent.",
            "org.deeplearning4j.nn.conf.layers.misc.", "org.deeplearning4j.nn.conf.layers.util.",
            "org.deeplearning4j.nn.conf.layers.objdetect.", "org.deeplearning4j.nn.conf.layers.samediff.");

    /** Names DL4J's builders take where its JSON has another field, and how the builder reads the value. */
    private static final Map<String, String> BUILDER_NAMES = Map.of("activation", "activationFn",
            "weightinit", "weightInitFn", "lossfunction", "lossFn", "loss", "lossFn", "dropout", "idropout");

    private LayerConfigs() {}

    /**
     * DL4J's mapper, writing no SameDiff layer's {@code layerParams}: DL4J computes them from the configuration the
     * first time it is asked (its JSON writer asks), and keeps them. Written from the defaults, they would be the
     * parameters of a layer with no sizes (LocallyConnected2D throws, LearnedSelfAttentionLayer keeps a Q of
     * shape [1, 0, 0]); left out, DL4J computes them from the configuration as read. (A class-level ignore would
     * not do: LocallyConnected2D's own {@code @JsonIgnoreProperties} replaces an inherited one.)
     */
    private static final ObjectMapper MAPPER = NeuralNetConfiguration.mapper().copy()
            .registerModule(new SimpleModule().setSerializerModifier(new BeanSerializerModifier() {
                @Override
                public List<BeanPropertyWriter> changeProperties(SerializationConfig config, BeanDescription bean,
                                                                 List<BeanPropertyWriter> properties) {
                    if (AbstractSameDiffLayer.class.isAssignableFrom(bean.getBeanClass())) {
                        properties.removeIf(p -> p.getName().equals("layerParams"));
                    }
                    return properties;
                }
            }));

    /**
     * The layer configuration the spec writes, DL4J's defaults for every option it leaves out. The options alone
     * are read first, refusing any field DL4J's JSON does not know (its mapper otherwise ignores them: a typo
     * would leave the default in place unsaid); then over the defaults, as DL4J reads its own JSON.
     */
    static Layer read(LayerSpec spec, ClassLoader loader) throws InvalidSpecException {
        Class<? extends Layer> type = type(spec.type(), loader);
        ObjectMapper dl4j = mapper(loader);
        Optional<Layer> wrapper = wrapperDefaults(spec, type, loader);
        ObjectNode tree = tree(dl4j, wrapper.isPresent() ? wrapper.get() : defaults(type, spec.type()), spec.type());
        ObjectNode written = dl4j.createObjectNode().put("@class", type.getName());
        for (Map.Entry<String, Located<Object>> option : spec.options().entrySet()) {
            if (option.getValue().value() instanceof LayerSpec inner) {
                Layer wrapped = read(inner, loader);
                for (String field : wrappedFields(tree, option.getKey())) {
                    tree.set(field, dl4j.valueToTree(wrapped));
                    written.set(field, dl4j.valueToTree(wrapped));
                }
                continue;
            }
            String field = field(tree, option.getKey());
            Object value = builderField(option.getKey(), field) ? value(option.getKey(), option.getValue())
                    : enumName(option.getKey(), option.getValue().value());
            tree.set(field, dl4j.valueToTree(value));
            written.set(field, dl4j.valueToTree(value));
        }
        treeToLayer(dl4j.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES), written, spec, tree);
        return treeToLayer(dl4j, tree, spec, tree);
    }

    private static Layer treeToLayer(ObjectMapper mapper, ObjectNode json, LayerSpec spec, ObjectNode known)
            throws InvalidSpecException {
        try {
            return mapper.treeToValue(json, Layer.class);
        } catch (JsonMappingException e) {
            throw new InvalidSpecException(blamed(spec, e), spec.type().value() + ": DL4J cannot read "
                    + describe(e, known));
        } catch (Exception e) {
            throw new InvalidSpecException(spec.type().pos(), spec.type().value() + ": DL4J cannot read the"
                    + " options: " + GraphBuilder.firstLine(e));
        }
    }

    /**
     * A configuration's options as a layer spec writes them: its JSON fields that differ from its type's defaults
     * (the global defaults a network filled in among them), values as DL4J's JSON holds them. Fields DL4J's JSON
     * writes but cannot read back are left out.
     */
    static Map<String, Object> optionsOf(Layer config) throws InvalidSpecException {
        ObjectMapper dl4j = mapper(config.getClass().getClassLoader());
        ObjectMapper strict = dl4j.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        Located<String> name = new Located<>(config.getClass().getName(), new SourcePos("network", 1, 1));
        ObjectNode defaults = dl4j.valueToTree(defaults(config.getClass(), name));
        ObjectNode actual = dl4j.valueToTree(config);
        Map<String, Object> options = new java.util.LinkedHashMap<>();
        for (Iterator<String> it = actual.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (f.equals("@class") || actual.get(f).equals(defaults.get(f))) {
                continue;
            }
            ObjectNode probe = dl4j.createObjectNode().put("@class", config.getClass().getName());
            probe.set(f, actual.get(f));
            try {
                strict.treeToValue(probe, Layer.class);
                options.put(f, dl4j.treeToValue(actual.get(f), Object.class));
            } catch (Exception e) {
                // written by DL4J's JSON, not read back by it: not an option
            }
        }
        return options;
    }

    /**
     * DL4J's mapper, finding the classes its JSON names ({@code "@class"}) in {@code loader}: a user's layer is in a
     * plugin path's loader, which Jackson's own lookup (the thread's context loader) does not see.
     */
    private static ObjectMapper mapper(ClassLoader loader) {
        ObjectMapper dl4j = MAPPER.copy();
        return dl4j.setTypeFactory(dl4j.getTypeFactory().withClassLoader(loader));
    }

    /** The configuration class a type names: a DL4J layer by its simple name, or a class by its full name. */
    static Class<? extends Layer> type(Located<String> name, ClassLoader loader) throws InvalidSpecException {
        List<String> candidates = new ArrayList<>(name.value().contains(".") ? List.of()
                : PACKAGES.stream().map(p -> p + name.value()).toList());
        candidates.add(name.value()); // a user's layer, by its full name (or a class of the unnamed package)
        for (String candidate : candidates) {
            try {
                Class<?> c = Class.forName(candidate, false, loader);
                if (Layer.class.isAssignableFrom(c)) {
                    return c.asSubclass(Layer.class);
                }
                throw new InvalidSpecException(name.pos(), "'" + name.value() + "' is no DL4J layer configuration"
                        + " (" + c.getName() + " does not extend " + Layer.class.getName() + ")");
            } catch (ClassNotFoundException e) {
                // the next package
            }
        }
        throw new InvalidSpecException(name.pos(), "unknown DL4J layer '" + name.value() + "'" + (name.value()
                .contains(".") ? ": no such class on gradcheck's class path" + (loader instanceof java.net.URLClassLoader
                u ? " or the plugin paths " + Arrays.toString(u.getURLs()) : " (a user's layer is loaded with"
                + " --plugin JAR)") : Suggestions.choices(name.value(), dev.gradcheck.op.catalog.LayerTypes.names())));
    }

    /**
     * DL4J's defaults: what the type's Builder builds with no options; where it cannot (a builder that wants
     * arguments, or refuses its own defaults), the configuration's no-argument constructor, as DL4J's JSON reader
     * makes one, with the options the spec writes on it.
     */
    private static Layer defaults(Class<? extends Layer> type, Located<String> name) throws InvalidSpecException {
        Optional<Class<?>> builder = Arrays.stream(type.getDeclaredClasses())
                .filter(c -> c.getSimpleName().equals("Builder")).findFirst();
        if (builder.isPresent()) {
            try {
                var constructor = builder.get().getDeclaredConstructor();
                constructor.setAccessible(true);
                return type.cast(builder.get().getMethod("build").invoke(constructor.newInstance()));
            } catch (ReflectiveOperationException | RuntimeException e) {
                // no builder without arguments, or one that refuses its own defaults: the constructor below
            }
        }
        try {
            var constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            Throwable cause = e instanceof java.lang.reflect.InvocationTargetException t ? t.getCause() : e;
            throw new InvalidSpecException(name.pos(), name.value() + ": DL4J makes no configuration without"
                    + " options: " + cause);
        }
    }

    /** A configuration as DL4J's JSON writes it; what DL4J cannot write is the spec's problem, at its type. */
    private static ObjectNode tree(ObjectMapper dl4j, Layer config, Located<String> type) throws InvalidSpecException {
        try {
            return dl4j.valueToTree(config);
        } catch (RuntimeException e) {
            throw new InvalidSpecException(type.pos(), type.value() + ": DL4J cannot write its configuration: "
                    + GraphBuilder.firstLine(e));
        }
    }

    /**
     * A wrapper's defaults (Bidirectional, LastTimeStep, TimeDistributed, FrozenLayerWithBackprop, ...): the
     * wrapper around the first layer the spec wraps, by its one-layer constructor, as its builder would make it
     * (without a layer DL4J cannot even write its configuration); empty for a layer that wraps none.
     */
    private static Optional<Layer> wrapperDefaults(LayerSpec spec, Class<? extends Layer> type, ClassLoader loader)
            throws InvalidSpecException {
        Optional<LayerSpec> inner = spec.options().values().stream().map(Located::value)
                .filter(LayerSpec.class::isInstance).map(LayerSpec.class::cast).findFirst();
        if (inner.isEmpty()) {
            return Optional.empty();
        }
        Layer wrapped = read(inner.get(), loader);
        try {
            for (var constructor : type.getConstructors()) {
                Class<?>[] params = constructor.getParameterTypes();
                if (params.length == 2 && params[0] == Layer.class && params[1].isEnum()) { // TimeDistributed
                    Object first = params[1].getEnumConstants()[0];
                    return Optional.of(type.cast(constructor.newInstance(wrapped, first)));
                }
            }
            return Optional.of(type.cast(type.getConstructor(Layer.class).newInstance(wrapped)));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new InvalidSpecException(spec.type().pos(), spec.type().value() + " takes no wrapped layer (DL4J"
                    + " has no " + type.getSimpleName() + "(Layer) constructor)");
        }
    }

    /**
     * The fields a wrapped layer is written to: Bidirectional's builder name {@code rnnLayer} is both its
     * {@code fwd} and its {@code bwd} (as its builder copies the one layer); any other option its own field.
     */
    private static List<String> wrappedFields(ObjectNode tree, String option) {
        if (option.equalsIgnoreCase("rnnLayer") && tree.has("fwd") && tree.has("bwd")) {
            return List.of("fwd", "bwd");
        }
        return List.of(field(tree, option));
    }

    /** The JSON field an option writes: the field of that name whatever its case, or the builder's name's. */
    private static String field(ObjectNode tree, String option) {
        String builderName = BUILDER_NAMES.get(option.toLowerCase(java.util.Locale.ROOT));
        String wanted = builderName != null ? builderName : option;
        for (Iterator<String> it = tree.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (f.equalsIgnoreCase(wanted)) {
                return f;
            }
        }
        return option; // no such field: DL4J's mapper refuses it, naming the fields it knows
    }

    /** Whether an option writes the field its builder's name stands for (activation: activationFn). */
    private static boolean builderField(String option, String field) {
        String builderName = BUILDER_NAMES.get(option.toLowerCase(java.util.Locale.ROOT));
        return builderName != null && builderName.equals(field);
    }

    /**
     * A builder's name written over a field of its own name holds the enum itself (RecurrentAttentionLayer's
     * {@code activation} is an {@code Activation}, not an {@code IActivation}): by its constant's name.
     */
    private static Object enumName(String option, Object value) {
        boolean builderName = BUILDER_NAMES.containsKey(option.toLowerCase(java.util.Locale.ROOT));
        return builderName && value instanceof String name ? name.toUpperCase(java.util.Locale.ROOT) : value;
    }

    /** An option's value as DL4J's JSON holds it: activations, weight inits and losses by their enum's name. */
    private static Object value(String option, Located<Object> value) throws InvalidSpecException {
        String key = option.toLowerCase(java.util.Locale.ROOT);
        if (!BUILDER_NAMES.containsKey(key)) {
            return value.value();
        }
        if (key.equals("dropout")) { // the builder's dropOut(p): the probability of keeping an activation
            if (!(value.value() instanceof Number p)) {
                throw new InvalidSpecException(value.pos(), "'" + option + "' takes a probability, got "
                        + value.value());
            }
            return new org.deeplearning4j.nn.conf.dropout.Dropout(p.doubleValue());
        }
        if (!(value.value() instanceof String name)) {
            throw new InvalidSpecException(value.pos(), "'" + option + "' takes a name, got " + value.value());
        }
        String upper = name.toUpperCase(java.util.Locale.ROOT);
        try {
            return switch (key) {
                case "activation" -> Activation.valueOf(upper).getActivationFunction();
                case "weightinit" -> WeightInit.valueOf(upper).getWeightInitFunction();
                default -> LossFunctions.LossFunction.valueOf(upper).getILossFunction();
            };
        } catch (IllegalArgumentException e) {
            List<String> valid = Arrays.stream(switch (key) {
                case "activation" -> Activation.values();
                case "weightinit" -> WeightInit.values();
                default -> LossFunctions.LossFunction.values();
            }).map(v -> ((Enum<?>) v).name()).toList();
            throw new InvalidSpecException(value.pos(), "unknown " + option + " '" + name + "'"
                    + Suggestions.choices(upper, valid));
        }
    }

    /** The option a mapping error is about, by the field it names; else the type. */
    private static SourcePos blamed(LayerSpec spec, JsonMappingException e) {
        for (JsonMappingException.Reference ref : e.getPath()) {
            String f = ref.getFieldName();
            if (f == null) {
                continue;
            }
            for (Map.Entry<String, Located<Object>> option : spec.options().entrySet()) {
                String key = option.getKey();
                String builderName = BUILDER_NAMES.get(key.toLowerCase(java.util.Locale.ROOT));
                if (key.equalsIgnoreCase(f) || f.equals(builderName)) {
                    return option.getValue().pos();
                }
            }
        }
        return spec.type().pos();
    }

    private static String describe(JsonMappingException e, ObjectNode tree) {
        String message = e.getOriginalMessage();
        if (e instanceof org.nd4j.shade.jackson.databind.exc.UnrecognizedPropertyException u) {
            List<String> known = new ArrayList<>();
            tree.fieldNames().forEachRemaining(known::add);
            known.remove(u.getPropertyName());
            known.remove("@class");
            return "unknown option '" + u.getPropertyName() + "'" + Suggestions.choices(u.getPropertyName(), known);
        }
        return "option " + e.getPathReference().replaceAll(".*\\[\"", "'").replaceAll("\"\\]", "'") + ": "
                + message.lines().findFirst().orElse("");
    }
}
