package dev.gradcheck.op;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipFile;
import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.nd4j.shade.jackson.databind.ObjectMapper;

/**
 * The DL4J network a network spec names: a ModelSerializer {@code .zip} (its trained parameters) or a
 * configuration's JSON (initialised under its own seed), of a {@link MultiLayerNetwork} or a
 * {@link ComputationGraph}, told apart by the configuration itself (a graph's has {@code vertices}).
 */
final class SavedNetworks {

    /** ModelSerializer's entry for the configuration, in its zip. */
    private static final String CONFIGURATION = "configuration.json";

    private SavedNetworks() {}

    /**
     * @param classes where the classes its configuration names are found (DL4J's JSON looks through the thread's
     *                context loader): gradcheck's, or the plugin paths' too, a user's own layer
     */
    static Model load(OpSpec spec, ClassLoader classes) throws InvalidSpecException {
        Path file = NetworkFile.of(spec);
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(classes);
        try {
            NetworkFile.requireRegularFile(file);
            boolean json = file.toString().endsWith(".json");
            String config = json ? Files.readString(file) : configurationIn(file);
            boolean graph = new ObjectMapper().readTree(config).has("vertices");
            if (!json) {
                return graph ? ModelSerializer.restoreComputationGraph(new File(file.toString()), false)
                        : ModelSerializer.restoreMultiLayerNetwork(new File(file.toString()), false);
            }
            Model net = graph ? new ComputationGraph(ComputationGraphConfiguration.fromJson(config))
                    : new MultiLayerNetwork(MultiLayerConfiguration.fromJson(config));
            net.init();
            return net;
        } catch (IOException | RuntimeException e) {
            throw new InvalidSpecException(spec.network().pos(), "DL4J cannot load the network " + file + ": "
                    + GraphBuilder.firstLine(e));
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    private static String configurationIn(Path zip) throws IOException {
        try (ZipFile z = new ZipFile(zip.toFile())) {
            var entry = z.getEntry(CONFIGURATION);
            if (entry == null) {
                throw new IOException("no " + CONFIGURATION + " in it (is it a ModelSerializer zip?)");
            }
            return new String(z.getInputStream(entry).readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
