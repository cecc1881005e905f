package dev.gradcheck.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecIds;
import dev.gradcheck.spec.SpecLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** --shard K/N over the shipped spec suite: disjoint, complete, stable, and balanced when durations are known. */
class ShardTest {

    private static List<LoadedSpec> suite;
    private static final SpecIds IDS = new SpecIds(Path.of(""), Path.of(""));

    @BeforeAll
    static void loadTheSuite() throws Exception {
        SpecLoader loader = new SpecLoader();
        suite = new ArrayList<>();
        for (Path file : SpecLoader.collect(List.of(Path.of("specs")))) {
            suite.addAll(loader.load(file));
        }
        assertTrue(suite.size() > 250, "the whole suite: " + suite.size());
    }

    private static List<List<LoadedSpec>> shards(List<LoadedSpec> specs, int n, Map<String, Double> durations) {
        List<List<LoadedSpec>> parts = new ArrayList<>();
        for (int k = 1; k <= n; k++) {
            parts.add(new Shard(k, n).select(specs, IDS, durations));
        }
        return parts;
    }

    private static void assertDisjointAndComplete(List<LoadedSpec> specs, List<List<LoadedSpec>> parts) {
        Set<String> seen = new HashSet<>();
        int total = 0;
        for (List<LoadedSpec> part : parts) {
            for (LoadedSpec s : part) {
                assertTrue(seen.add(IDS.of(s)), "in two shards: " + IDS.of(s));
            }
            total += part.size();
        }
        assertEquals(specs.size(), total, "every spec in exactly one shard");
        assertEquals(specs.stream().map(IDS::of).collect(java.util.stream.Collectors.toSet()), seen);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 7, 16})
    void byHashTheShardsAreDisjointAndComplete(int n) {
        List<List<LoadedSpec>> parts = shards(suite, n, Map.of());
        assertDisjointAndComplete(suite, parts);
        for (List<LoadedSpec> part : parts) {
            List<LoadedSpec> inOrder = suite.stream().filter(part::contains).toList();
            assertEquals(inOrder, part, "a shard keeps the run's order");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void byDurationsTheShardsAreDisjointCompleteAndBalanced(int n) {
        Map<String, Double> durations = syntheticDurations(suite);
        List<List<LoadedSpec>> parts = shards(suite, n, durations);
        assertDisjointAndComplete(suite, parts);
        double[] loads = parts.stream().mapToDouble(p -> p.stream().mapToDouble(s -> durations.get(IDS.of(s))).sum())
                .toArray();
        double longest = durations.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double max = java.util.Arrays.stream(loads).max().orElseThrow();
        double min = java.util.Arrays.stream(loads).min().orElseThrow();
        // the greedy rule never leaves two parts further apart than the longest single spec
        assertTrue(max - min <= longest, java.util.Arrays.toString(loads) + " longest " + longest);
        double byHash = shards(suite, n, Map.of()).stream()
                .mapToDouble(p -> p.stream().mapToDouble(s -> durations.get(IDS.of(s))).sum()).max().orElseThrow();
        assertTrue(max <= byHash, "balancing by time beats hashing: " + max + " vs " + byHash);
    }

    /** Deterministic: the same partition whatever order the specs are listed in (file systems list in any order). */
    @Test
    void theOrderOfTheSpecsDoesNotMatter() {
        Map<String, Double> durations = syntheticDurations(suite);
        List<LoadedSpec> shuffled = new ArrayList<>(suite);
        Collections.shuffle(shuffled, new Random(42));
        for (Map<String, Double> d : List.of(Map.<String, Double>of(), durations)) {
            for (int k = 1; k <= 3; k++) {
                Set<LoadedSpec> a = new HashSet<>(new Shard(k, 3).select(suite, IDS, d));
                Set<LoadedSpec> b = new HashSet<>(new Shard(k, 3).select(shuffled, IDS, d));
                assertEquals(a, b, "shard " + k + "/3" + (d.isEmpty() ? " by hash" : " by durations"));
            }
        }
    }

    /** By hash, a spec's shard depends on its id alone: adding or removing other specs never moves it. */
    @Test
    void byHashASpecStaysInItsShardWhateverOtherSpecsExist() {
        List<LoadedSpec> half = new ArrayList<>();
        for (int i = 0; i < suite.size(); i += 2) {
            half.add(suite.get(i));
        }
        for (int k = 1; k <= 4; k++) {
            List<LoadedSpec> whole = new Shard(k, 4).select(suite, IDS, Map.of());
            List<LoadedSpec> ofHalf = new Shard(k, 4).select(half, IDS, Map.of());
            assertEquals(whole.stream().filter(half::contains).toList(), ofHalf);
        }
    }

    /** The key is the path relative to the project root and the name: the same from any working directory. */
    @Test
    void theKeyIsRelativeToTheProjectRoot() {
        Path root = Path.of("").toAbsolutePath();
        SpecIds fromRoot = new SpecIds(root, root);
        SpecIds fromSpecs = new SpecIds(root, root.resolve("specs"));
        assertEquals("specs/activations/softmax.yaml::softmax-rows",
                fromRoot.of("specs/activations/softmax.yaml", "softmax-rows"));
        assertEquals(fromRoot.of("specs/activations/softmax.yaml", "softmax-rows"),
                fromSpecs.of("activations/softmax.yaml", "softmax-rows"));
        assertEquals(fromRoot.of("specs/a.yaml", "x"), fromRoot.of(root.resolve("specs/a.yaml").toString(), "x"));
        // the hash of a key is fixed across JVMs and machines: pin one value
        assertEquals(0x9f86d081884c7d65L, Shard.hash("test"), "SHA-256('test') starts 9f86d081884c7d65");
    }

    @Test
    void specsWithoutARecordedTimeCountAsTheMean() {
        Map<String, Double> some = new HashMap<>();
        for (int i = 0; i < suite.size(); i += 3) {
            some.put(IDS.of(suite.get(i)), 1.0 + i % 7);
        }
        assertDisjointAndComplete(suite, shards(suite, 3, some));
        List<String> ids = List.of("a", "b", "c", "d");
        int[] parts = Shard.partition(ids, 2, Map.of("a", 10.0, "b", 10.0));
        // c and d count as 10 s each: two per part
        assertEquals(2, java.util.Arrays.stream(parts).filter(p -> p == 1).count());
    }

    @Test
    void shardsParseAndRefuseNonsense() {
        assertEquals(new Shard(2, 3), Shard.parse("2/3"));
        assertEquals("2/3", Shard.parse(" 2 / 3 ").toString());
        for (String bad : List.of("0/3", "4/3", "3", "a/b", "1/0", "1/2/3", "-1/2")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Shard.parse(bad), bad);
            assertTrue(e.getMessage().contains("K/N"), e.getMessage());
        }
    }

    /** Times that vary by two orders of magnitude, as real checks do; fixed per spec. */
    private static Map<String, Double> syntheticDurations(List<LoadedSpec> specs) {
        Map<String, Double> d = new HashMap<>();
        Random random = new Random(7);
        for (LoadedSpec s : specs) {
            d.put(IDS.of(s), 0.01 + Math.pow(10, 2 * random.nextDouble()) / 10);
        }
        return d;
    }
}
