package dev.gradcheck.run;

import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecIds;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * {@code --shard K/N}: the K-th of N disjoint parts of a selection, which together are all of it, so that N CI
 * machines can each check one part. Every machine computes the same parts, whatever order its file system lists
 * directories in, because a spec's part is drawn from its id (the file's path relative to the project root and the
 * spec's name, {@link SpecIds}):
 *
 * <ul>
 *   <li>Without recorded durations, spec s goes to part 1 + (h(s) mod N), h being the first 8 bytes of the SHA-256
 *       of its id as an unsigned number. A spec's part then depends on nothing but its id and N: adding or removing
 *       other specs never moves it.</li>
 *   <li>With recorded durations ({@code --shard-durations FILE}), parts are balanced by time: specs are taken
 *       longest first (ties by h, then id) and each goes to the part with the least time so far (ties: the lowest
 *       part), a spec with no recorded time counting as the mean of those recorded (the greedy
 *       longest-processing-time rule). That depends on the whole selection and the file, so every machine must
 *       select the same specs and read the same file (a committed one).</li>
 * </ul>
 *
 * A spec runs with all its engines in one part. Parts are computed on the selection after --only, --skip and
 * --tag, before --last-failed.
 *
 * @param index 1-based, at most {@code total}
 * @param total the number of parts
 */
public record Shard(int index, int total) {

    /** The most parts a selection is cut into: more CI machines than that is not a run anybody merges. */
    public static final int MAX_TOTAL = 1000;

    public Shard {
        if (total < 1 || index < 1 || index > total || total > MAX_TOTAL) {
            throw new IllegalArgumentException("a shard is K/N with 1 <= K <= N <= " + MAX_TOTAL + ", got " + index
                    + "/" + total);
        }
    }

    /**
     * {@code K/N}, e.g. {@code 2/3}.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static Shard parse(String text) {
        String[] parts = text.strip().split("/", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("'" + text + "' is not K/N (e.g. 2/3: the second of three parts)");
        }
        try {
            return new Shard(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not K/N with whole numbers (e.g. 2/3)");
        }
    }

    @Override
    public String toString() {
        return index + "/" + total;
    }

    /** This part's specs, in the order given. */
    public List<LoadedSpec> select(List<LoadedSpec> specs, SpecIds ids, Map<String, Double> durations) {
        int[] parts = partition(specs.stream().map(ids::of).toList(), total, durations);
        List<LoadedSpec> mine = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            if (parts[i] == index) {
                mine.add(specs.get(i));
            }
        }
        return mine;
    }

    /**
     * The part (1..n) of each id, by hash alone when {@code durations} has none of them, else balanced by time.
     */
    static int[] partition(List<String> ids, int n, Map<String, Double> durations) {
        int[] parts = new int[ids.size()];
        long[] hashes = ids.stream().mapToLong(Shard::hash).toArray();
        double[] seconds = ids.stream().mapToDouble(id -> durations.getOrDefault(id, Double.NaN)).toArray();
        double mean = java.util.Arrays.stream(seconds).filter(s -> s >= 0).average().orElse(Double.NaN);
        if (Double.isNaN(mean)) {
            for (int i = 0; i < parts.length; i++) {
                parts[i] = 1 + (int) Long.remainderUnsigned(hashes[i], n);
            }
            return parts;
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            order.add(i);
            if (!(seconds[i] >= 0)) {
                seconds[i] = mean;
            }
        }
        order.sort(Comparator.<Integer>comparingDouble(i -> -seconds[i])
                .thenComparing(i -> hashes[i], Long::compareUnsigned)
                .thenComparing(ids::get));
        double[] load = new double[n];
        for (int i : order) {
            int lightest = 0;
            for (int p = 1; p < n; p++) {
                if (load[p] < load[lightest]) {
                    lightest = p;
                }
            }
            load[lightest] += seconds[i];
            parts[i] = lightest + 1;
        }
        return parts;
    }

    /** The first 8 bytes of the SHA-256 of the id's UTF-8 bytes: the same in every JVM, on every machine. */
    static long hash(String id) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            long h = 0;
            for (int i = 0; i < 8; i++) {
                h = (h << 8) | (digest[i] & 0xff);
            }
            return h;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
