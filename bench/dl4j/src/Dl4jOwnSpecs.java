// bench/dl4j: DL4J's own gradient-check tests (Dl4jOwnTests) as gradcheck `network:` specs, the text the bench
// checks and the files `bench/dl4j/run --write-specs` writes into specs/dl4j/.
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.nd4j.linalg.api.ndarray.INDArray;

final class Dl4jOwnSpecs {

    private Dl4jOwnSpecs() {
    }

    /** One case's spec; with its expectation (and tags) as the spec file holds it, without as the bench runs it. */
    static String spec(Dl4jOwnTests.Case c, String network, boolean asFile) {
        StringBuilder yaml = new StringBuilder("name: dl4j-own-" + c.slug() + "\n");
        if (asFile) {
            yaml.insert(0, "# " + c.test() + "\n");
        }
        yaml.append("network: ").append(network).append("\ninputs:\n  x: {shape: ")
                .append(Arrays.toString(c.shape())).append(", init: ")
                .append(c.x() == null ? "{uniform: [0, 1]}" : "{values: " + values(c.x()) + "}")
                .append("}\n  labels: {shape: ").append(Arrays.toString(Dl4jOwnTests.labels(c).shape()))
                .append(", init: {values: ").append(values(Dl4jOwnTests.labels(c))).append("}}\n");
        if (asFile && c.expect() != null) {
            yaml.append("expect: ").append(c.expect()).append("\nreason: >-\n  ").append(c.reason()).append('\n');
        }
        if (asFile) {
            yaml.append("tags: [dl4j, dl4j-own-tests]\n");
        }
        return yaml.toString();
    }

    /** An array's values as nested YAML lists, every digit kept (INDArray.toString rounds and elides). */
    static String values(INDArray a) {
        if (a.rank() == 0) {
            return number(a.getDouble(0));
        }
        StringBuilder s = new StringBuilder("[");
        for (long i = 0; i < a.size(0); i++) {
            s.append(i == 0 ? "" : ", ");
            s.append(a.rank() == 1 ? number(a.getDouble(i)) : values(a.slice(i)));
        }
        return s.append(']').toString();
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    /**
     * The light cases as {@code SPECS/own-tests.yaml} (in the spec suite), the heavy ones as
     * {@code BENCH/own-tests-heavy.yaml} (tagged {@code size-real}, outside it as the real-size specs are), each
     * network's JSON in {@code own/} beside its YAML; a case for the table only is not written.
     */
    static void write(List<Dl4jOwnTests.Case> cases, Path specs, Path bench) throws Exception {
        write(cases.stream().filter(c -> c.place() == Dl4jOwnTests.Place.SUITE).toList(),
                specs.resolve("own-tests.yaml"), "");
        write(cases.stream().filter(c -> c.place() == Dl4jOwnTests.Place.HEAVY).toList(),
                bench.resolve("own-tests-heavy.yaml"), """
                # The slower of them (over about 3 s each under load), outside specs/ so that the spec suite stays
                # about a minute: `bin/gradcheck check bench/dl4j/own-tests-heavy.yaml` (or --tag size-real).
                """);
    }

    private static void write(List<Dl4jOwnTests.Case> cases, Path yaml, String more) throws Exception {
        Path dir = yaml.getParent();
        Files.createDirectories(dir.resolve("own"));
        StringBuilder all = new StringBuilder("""
                # DL4J's own gradient-check tests (deeplearning4j-core's org.deeplearning4j.gradientcheck) as network
                # specs: each configuration as the test builds it (own/*.json), its input shape, one-hot labels or
                # the test's own values. Written by `bench/dl4j/run --write-specs` from bench/dl4j/src/Dl4jOwn*.java,
                # which also runs each beside DL4J's GradientCheckUtil (docs/benchmarks.md); do not edit by hand.
                """ + more);
        for (int i = 0; i < cases.size(); i++) {
            Dl4jOwnTests.Case c = cases.get(i);
            // compact JSON: DL4J reads it as it reads its own pretty-printed form, at a third of the size
            Files.writeString(dir.resolve("own").resolve(c.slug() + ".json"),
                    new com.fasterxml.jackson.databind.ObjectMapper().readTree(c.json()).toString() + "\n");
            String spec = spec(c, "own/" + c.slug() + ".json", true);
            boolean heavy = c.place() == Dl4jOwnTests.Place.HEAVY;
            all.append(i == 0 ? "" : "---\n").append(heavy ? spec.replace("dl4j-own-tests]",
                    "dl4j-own-tests, size-real]") : spec);
        }
        Files.writeString(yaml, all.toString());
        System.out.printf(Locale.ROOT, "%d specs written to %s%n", cases.size(), yaml);
    }
}
