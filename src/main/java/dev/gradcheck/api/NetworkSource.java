package dev.gradcheck.api;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.nd4j.autodiff.samediff.SameDiff;

/**
 * The network a {@link GradCheck} checks, as a network spec names it: a file, or a network in memory written to a
 * temporary file for the check (ModelSerializer's zip, SameDiff's FlatBuffers) and removed after it. The check
 * loads its own copy, so the caller's network is never changed by the parameters the check perturbs.
 */
final class NetworkSource {

    /** Writes a network in memory to a file. */
    private interface Writer {
        void write(File file) throws IOException;
    }

    private final Path file;
    private final Writer writer;
    private final String fileName;

    private NetworkSource(Path file, Writer writer, String fileName) {
        this.file = file;
        this.writer = writer;
        this.fileName = fileName;
    }

    static NetworkSource of(Path file) {
        return new NetworkSource(file.toAbsolutePath(), null, String.valueOf(file.getFileName()));
    }

    static NetworkSource of(MultiLayerNetwork net) {
        return new NetworkSource(null, f -> ModelSerializer.writeModel(net, f, false), "network.zip");
    }

    static NetworkSource of(ComputationGraph graph) {
        return new NetworkSource(null, f -> ModelSerializer.writeModel(graph, f, false), "graph.zip");
    }

    static NetworkSource of(SameDiff model) {
        return new NetworkSource(null, f -> model.save(f, false), "model.fb");
    }

    /** The file's name: a result's default name. */
    String name() {
        return fileName;
    }

    /** Whether the network is DL4J's (ModelSerializer's zip, a configuration's JSON), whose masks DL4J sets. */
    boolean dl4j() {
        String lower = fileName.toLowerCase(java.util.Locale.ROOT);
        return lower.endsWith(".zip") || lower.endsWith(".json");
    }

    /** Runs {@code work} on the network's file: the one given, or a temporary one written now and removed after. */
    <T> T withFile(Function<Path, T> work) {
        if (file != null) {
            return work.apply(file);
        }
        try {
            Path dir = Files.createTempDirectory("gradcheck-network");
            Path written = dir.resolve(fileName);
            try {
                writer.write(written.toFile());
                return work.apply(written);
            } finally {
                Files.deleteIfExists(written);
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the network could not be written to a temporary file", e);
        }
    }
}
