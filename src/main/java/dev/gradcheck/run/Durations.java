package dev.gradcheck.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gradcheck.spec.SmallFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * How long each spec took (seconds, all its engines together), by spec id: what {@code --shard} balances by.
 * Written by every {@code check} run into its cache directory and by {@code gradcheck merge --write-durations};
 * read from such a file or from a gradcheck JSON report (its checks' {@code id} and {@code seconds}).
 *
 * <pre>{"schema": "gradcheck-durations", "schema_version": 1, "durations": {"specs/a.yaml::tanh": 0.12}}</pre>
 */
public final class Durations {

    public static final String SCHEMA = "gradcheck-durations";
    static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A durations file, or a whole JSON report (which may carry Jacobians) read for its checks' times. */
    static final long MAX_BYTES = 512L << 20;

    private Durations() {}

    /**
     * @throws IOException when the file cannot be read, or is neither a durations file nor a gradcheck report
     */
    public static Map<String, Double> read(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = SmallFiles.read(file, "durations files", MAX_BYTES);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException(file + ": no such file");
        } catch (IOException e) {
            throw new IOException(file + ": " + CacheFiles.firstLine(e));
        }
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new IOException(file + ": not a durations file (" + CacheFiles.firstLine(e) + ")");
        }
        String schema = root == null ? "" : root.path("schema").asText("");
        Map<String, Double> durations = new LinkedHashMap<>();
        if (schema.equals(SCHEMA)) {
            root.path("durations").fields().forEachRemaining(e -> {
                if (e.getValue().isNumber() && e.getValue().asDouble() >= 0) {
                    durations.put(e.getKey(), e.getValue().asDouble());
                }
            });
        } else if (schema.equals("gradcheck-report")) {
            for (JsonNode check : root.path("checks")) {
                String id = check.path("id").asText("");
                if (!id.isEmpty() && check.path("seconds").isNumber()) {
                    durations.merge(id, check.path("seconds").asDouble(), Double::sum);
                }
            }
        } else {
            throw new IOException(file + ": neither a durations file (\"schema\": \"" + SCHEMA
                    + "\") nor a gradcheck JSON report");
        }
        return durations;
    }

    /** Writes {@code durations}, sorted by id, whole or not at all. */
    public static void write(Path file, Map<String, Double> durations) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("schema_version", SCHEMA_VERSION);
        ObjectNode all = root.putObject("durations");
        new TreeMap<>(durations).forEach((id, s) -> all.put(id, Math.round(s * 1e4) / 1e4));
        CacheFiles.writeAtomically(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
    }
}
