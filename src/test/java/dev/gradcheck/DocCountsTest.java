package dev.gradcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.run.Shard;
import dev.gradcheck.spec.GraphNode;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecIds;
import dev.gradcheck.spec.SpecLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every count of the spec suite a document quotes (specs, ops, checks, shards) is computed here from specs/ and
 * compared, so that adding a spec fails this test until the docs say the new numbers: they cannot go stale as
 * cli.md's test count and ci.md's "302 specs in shards of 101/97/104" did (issue 35 item 10). Counts that are
 * measurements of their day (a wall time with its date, a test run) are not quoted as the suite's current size.
 */
class DocCountsTest {

    private static final SpecIds IDS = new SpecIds(Path.of("").toAbsolutePath(), Path.of("").toAbsolutePath());
    private static List<LoadedSpec> suite;

    @BeforeAll
    static void load() throws Exception {
        suite = new ArrayList<>();
        SpecLoader loader = new SpecLoader();
        for (Path file : SpecLoader.collect(List.of(Path.of("specs")))) {
            suite.addAll(loader.load(file));
        }
    }

    /** Every distinct op the suite checks: a spec's op, each op of a graph spec's nodes. */
    static Set<String> ops() {
        Set<String> ops = new TreeSet<>();
        for (LoadedSpec s : suite) {
            if (s.spec() != null && s.spec().graph() != null) {
                s.spec().graph().nodes().stream().map(GraphNode::op).forEach(o -> ops.add(o.value()));
            } else if (s.spec() != null) {
                ops.add(s.spec().op().value());
            }
        }
        return ops;
    }

    /** The specs each of {@code n} shards takes by hash, as `check --shard K/N` without durations. */
    static List<Integer> shards(int n) {
        List<Integer> sizes = new ArrayList<>();
        for (int k = 1; k <= n; k++) {
            sizes.add(Shard.parse(k + "/" + n).select(suite, IDS, Map.of()).size());
        }
        return sizes;
    }

    private static Matcher find(String file, String regex) throws Exception {
        Matcher m = Pattern.compile(regex).matcher(Files.readString(Path.of(file)));
        assertTrue(m.find(), file + " no longer says /" + regex + "/: update this test with the doc");
        return m;
    }

    @Test
    void readmeQuotesTheSuitesSpecsAndOps() throws Exception {
        Matcher m = find("README.md", "checks every spec of the suite \\((\\d+) specs over (\\d+) ops\\)");
        assertEquals(suite.size(), Integer.parseInt(m.group(1)), "README.md: specs in specs/");
        assertEquals(ops().size(), Integer.parseInt(m.group(2)), "README.md: ops in specs/");
        Matcher run = find("README.md", "last line `(\\d+) checks:");
        assertEquals(suite.size(), Integer.parseInt(run.group(1)), "README.md: one check a spec (cpu)");
    }

    @Test
    void ciQuotesTheShardsOfTheSuite() throws Exception {
        Matcher m = find("docs/ci.md", "on this project's (\\d+) specs, 3 shards get (\\d+), (\\d+) and (\\d+)\\s+specs");
        assertEquals(suite.size(), Integer.parseInt(m.group(1)), "docs/ci.md: specs in specs/");
        assertEquals(shards(3), List.of(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4))), "docs/ci.md: specs per shard of 3");
    }

    /** A count of tests is a measurement of one run, not a fact to keep: docs say how long, not how many. */
    @Test
    void noDocQuotesHowManyTestsTheBuildHas() throws Exception {
        List<String> quoted = new ArrayList<>();
        try (Stream<Path> docs = Stream.concat(Stream.of(Path.of("README.md")), Files.list(Path.of("docs")))) {
            for (Path doc : (Iterable<Path>) docs::iterator) {
                Matcher m = Pattern.compile("\\b[1-9][\\d,]* tests\\b").matcher(Files.readString(doc));
                while (m.find()) {
                    quoted.add(doc + ": " + m.group());
                }
            }
        }
        assertEquals(List.of(), quoted);
    }
}
