package dev.gradcheck.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.op.Backwards;
import dev.gradcheck.op.OpCatalog;
import dev.gradcheck.op.OpInfo;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.OpSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code gradcheck coverage [PATH...]}: which ops with a backward the specs check. */
@Command(name = "coverage", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Lists every ND4J op that has a backward pass (a native NAME_bp kernel, or a Java doDiff"
            + " through which SameDiff differentiates it), how many specs under PATH check it, and the share of"
            + " those ops that at least one spec covers. Use it to see which ops a spec suite still misses.",
            "Only valid specs count; run 'gradcheck validate' for the others. See docs/coverage.md."})
final class CoverageCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "PATH", defaultValue = "specs",
            description = "Spec files or directories (default: ${DEFAULT-VALUE}, relative to the working directory).")
    List<Path> paths;

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Option(names = "--uncovered", description = "List only the ops no spec covers (the totals stay the same).")
    boolean uncoveredOnly;

    @Spec
    CommandSpec command;

    /** One op with a backward and how many specs name it. */
    record Row(OpInfo op, int specs) {}

    @Override
    public Integer call() throws IOException {
        Console console = Console.of(command);
        SpecBatch batch = SpecBatch.load(paths);
        batch.pathProblems().forEach(p -> console.err().println("gradcheck: " + p));
        if (!batch.pathProblems().isEmpty()) {
            return ExitCode.USAGE.code();
        }
        Map<String, Integer> specsPerOp = new TreeMap<>();
        long invalid = 0;
        for (LoadedSpec loaded : batch.specs()) {
            if (loaded.isValid()) {
                opsOf(loaded.spec()).forEach(op -> specsPerOp.merge(op, 1, Integer::sum));
            } else {
                invalid++;
            }
        }
        if (invalid > 0) {
            console.err().println("gradcheck: " + invalid + " invalid spec(s) not counted ('gradcheck validate' lists"
                    + " them)");
        }
        List<Row> rows = Backwards.withBackward(OpCatalog.nd4j()).stream()
                .map(o -> new Row(o, specsPerOp.getOrDefault(o.name(), 0))).toList();
        PrintWriter out = console.out();
        if (json) {
            writeJson(rows, out);
        } else {
            writeTable(rows, out);
        }
        out.flush();
        return ExitCode.OK.code();
    }

    private static long covered(List<Row> rows) {
        return rows.stream().filter(r -> r.specs() > 0).count();
    }

    /** Ops a spec can name (they have a SameDiff class); registry-only ones with a _bp kernel cannot be covered. */
    private static List<Row> nameable(List<Row> rows) {
        return rows.stream().filter(r -> r.op().checkable()).toList();
    }

    /** The covered share in percent, one decimal. */
    static double percent(long covered, long total) {
        return total == 0 ? 0.0 : Math.round(1000.0 * covered / total) / 10.0;
    }

    private static String backward(OpInfo op) {
        return op.bpKernel() ? "bp kernel" : "doDiff";
    }

    private void writeTable(List<Row> rows, PrintWriter out) {
        int width = Math.max(2, rows.stream().mapToInt(r -> r.op().name().length()).max().orElse(0));
        out.printf("%-" + width + "s  %-9s  %5s  %s%n", "OP", "BACKWARD", "SPECS", "NOTE");
        for (Row r : rows) {
            if (!uncoveredOnly || r.specs() == 0) {
                String line = String.format("%-" + width + "s  %-9s  %5d  %s", r.op().name(), backward(r.op()),
                        r.specs(), r.op().checkable() ? "" : "registry only: no SameDiff class, a spec cannot name it");
                out.println(line.stripTrailing());
            }
        }
        long covered = covered(rows);
        List<Row> nameable = nameable(rows);
        out.println(rows.size() + " ops with a backward: " + covered + " covered by specs ("
                + percent(covered, rows.size()) + "%), " + (rows.size() - covered) + " not covered; of the "
                + nameable.size() + " a spec can name, " + percent(covered(nameable), nameable.size()) + "% covered");
    }

    private void writeJson(List<Row> rows, PrintWriter out) throws IOException {
        long covered = covered(rows);
        try (JsonGenerator g = new ObjectMapper().getFactory().createGenerator(out)) {
            g.setPrettyPrinter(new DefaultPrettyPrinter());
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            g.writeStartObject();
            g.writeNumberField("ops_with_backward", rows.size());
            g.writeNumberField("covered", covered);
            g.writeNumberField("percent", percent(covered, rows.size()));
            List<Row> nameable = nameable(rows);
            g.writeNumberField("nameable", nameable.size());
            g.writeNumberField("nameable_percent", percent(covered(nameable), nameable.size()));
            g.writeArrayFieldStart("ops");
            for (Row r : rows) {
                if (uncoveredOnly && r.specs() > 0) {
                    continue;
                }
                g.writeStartObject();
                g.writeStringField("name", r.op().name());
                g.writeBooleanField("bp_kernel", r.op().bpKernel());
                g.writeBooleanField("checkable", r.op().checkable());
                g.writeNumberField("specs", r.specs());

                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        out.println();
    }

    /** The ops a spec exercises: its op, or each distinct op among a graph spec's nodes. */
    private static Set<String> opsOf(OpSpec spec) {
        if (spec.graph() == null) {
            return Set.of(spec.op().value());
        }
        Set<String> ops = new TreeSet<>();
        spec.graph().nodes().forEach(n -> ops.add(n.op().value()));
        return ops;
    }
}
