package dev.gradcheck.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.SmallFiles;
import dev.gradcheck.spec.SpecIds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * What earlier runs of a project left behind, as pytest's {@code .pytest_cache}: which specs last ended in a way
 * that needs attention ({@code --last-failed}, {@code --failed-first}) and how long each took ({@code
 * --durations}, and a durations file for {@code --shard}). Kept in a directory, {@value #DEFAULT_DIR} at the
 * project root unless told otherwise, holding {@value #LAST_FAILED} and {@value #DURATIONS}; it marks itself
 * with a {@code .gitignore} and a {@code CACHEDIR.TAG} so neither version control nor backups take it.
 *
 * <p>A cache that cannot be read or written costs a warning, never a run: it only ever orders or narrows the
 * next selection.
 */
public final class RunCache {

    public static final String DEFAULT_DIR = ".gradcheck_cache";
    static final String LAST_FAILED = "lastfailed.json";
    static final String DURATIONS = "durations.json";
    private static final String SCHEMA = "gradcheck-lastfailed";
    /** The Cache Directory Tagging Specification's signature (https://bford.info/cachedir/). */
    private static final String CACHEDIR_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n"
            + "# This file is a cache directory tag created by gradcheck.\n";

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Far above any project's cache; a larger file is not read (the cache is advisory: a warning, not a run). */
    static final long MAX_BYTES = 64L << 20;

    private final Path dir;
    private final Consumer<String> warnings;

    /** @param warnings hears why the cache could not be read or written */
    public RunCache(Path dir, Consumer<String> warnings) {
        this.dir = dir;
        this.warnings = warnings;
    }

    public Path dir() {
        return dir;
    }

    /** The ids of the specs whose last check needed attention, each with its status's JSON name. */
    public Map<String, String> lastFailed() {
        Map<String, String> failed = new LinkedHashMap<>();
        JsonNode root = readJson(dir.resolve(LAST_FAILED));
        if (root != null) {
            root.path("last_failed").fields().forEachRemaining(e -> failed.put(e.getKey(), e.getValue().asText()));
        }
        return failed;
    }

    /** Each spec's last recorded time, by id. */
    public Map<String, Double> durations() {
        Path file = dir.resolve(DURATIONS);
        if (!Files.exists(file)) {
            return Map.of();
        }
        try {
            return Durations.read(file);
        } catch (IOException e) {
            warnings.accept("ignoring the cache's durations: " + e.getMessage());
            return Map.of();
        }
    }

    /** A listener that records the run's outcome here when it ends (or is interrupted). */
    public RunListener recorder(SpecIds ids) {
        return new Recorder(ids);
    }

    private JsonNode readJson(Path file) {
        try {
            JsonNode root = JSON.readTree(SmallFiles.read(file, "cache files", MAX_BYTES));
            if (root == null || !root.path("schema").asText("").equals(SCHEMA)) {
                throw new IOException("not gradcheck's");
            }
            return root;
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            warnings.accept("ignoring " + file + ": " + CacheFiles.firstLine(e));
            return null;
        }
    }

    private void save(Map<String, Boolean> attention, Map<String, Double> seconds, Map<String, String> statuses) {
        try {
            mark();
        } catch (IOException | RuntimeException e) {
            warnings.accept("cannot write the cache in " + dir + ": " + CacheFiles.firstLine(e));
            return;
        }
        // read, merged and written under the lock: runs ending together each keep the others' entries
        try (CacheLock lock = CacheLock.take(dir, warnings)) {
            Map<String, String> failed = new TreeMap<>(lastFailed());
            attention.forEach((id, bad) -> {
                if (bad) {
                    failed.put(id, statuses.get(id));
                } else {
                    failed.remove(id);
                }
            });
            ObjectNode root = JSON.createObjectNode();
            root.put("schema", SCHEMA);
            root.put("schema_version", 1);
            ObjectNode entries = root.putObject("last_failed");
            failed.forEach(entries::put);
            CacheFiles.writeAtomically(dir.resolve(LAST_FAILED),
                    JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
            Map<String, Double> durations = new HashMap<>(durations());
            durations.putAll(seconds);
            Durations.write(dir.resolve(DURATIONS), durations);
        } catch (IOException | RuntimeException e) {
            warnings.accept("cannot write the cache in " + dir + ": " + CacheFiles.firstLine(e));
        }
    }

    /** A new cache directory says what it is, to git and to backup tools. */
    private void mark() throws IOException {
        Files.createDirectories(dir);
        Path ignore = dir.resolve(".gitignore");
        if (!Files.exists(ignore)) {
            CacheFiles.writeAtomically(ignore, "# created by gradcheck: a cache, never committed\n*\n");
        }
        Path tag = dir.resolve("CACHEDIR.TAG");
        if (!Files.exists(tag)) {
            CacheFiles.writeAtomically(tag, CACHEDIR_TAG);
        }
    }

    /** Gathers each spec's outcome over its engines' rows; writes once, at the end. */
    private final class Recorder implements RunListener {
        private final SpecIds ids;
        private final Map<String, Boolean> attention = new LinkedHashMap<>();
        private final Map<String, String> statuses = new HashMap<>();
        private final Map<String, Double> seconds = new HashMap<>();
        private boolean saved;

        Recorder(SpecIds ids) {
            this.ids = ids;
        }

        @Override
        public synchronized void checkFinished(int index, CheckResult result) {
            String id = ids.of(SpecIds.fileOf(result.location()), result.name());
            Status status = result.status();
            boolean bad = status.needsAttention();
            if (bad && !attention.getOrDefault(id, false)) {
                statuses.put(id, status.jsonName());
            }
            attention.merge(id, bad, Boolean::logicalOr);
            if (status != Status.SKIPPED && status != Status.INVALID) {
                seconds.merge(id, result.seconds(), Double::sum);
            }
        }

        @Override
        public void runFinished(RunOutcome outcome) {
            saveOnce();
        }

        @Override
        public void runInterrupted(RunOutcome outcome) {
            saveOnce();
        }

        private synchronized void saveOnce() {
            if (!saved) {
                saved = true;
                save(attention, seconds, statuses);
            }
        }
    }
}
