package dev.gradcheck.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.catalog.OpInfo;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.Suggestions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gradcheck coverage [PATH...]}: which ops with a backward the specs check. */
@Command(name = "coverage", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Lists every ND4J op that has a backward pass (a native NAME_bp kernel, or a Java doDiff"
            + " through which SameDiff differentiates it), how many specs under PATH check it, and the share of"
            + " those ops that at least one spec covers. Use it to see which ops a spec suite still misses.",
            "PASSING counts the specs expected to pass (expect: pass); an op covered only by specs that record a"
            + " known bug (expect: fail/error) is covered but not verified.",
            "Only valid specs count; run 'gradcheck validate' for the others. A spec naming an op ND4J does not"
            + " have is reported on stderr and not counted. See ${sys:gradcheck.docs:-docs}/coverage.md (`gradcheck docs coverage`)."})
final class CoverageCommand extends AbstractCommand<SpecBatch> {

    @Parameters(arity = "0..*", paramLabel = "PATH", defaultValue = "specs",
            description = "Spec files or directories (default: ${DEFAULT-VALUE}, relative to the working directory).")
    List<Path> paths;

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Option(names = "--uncovered", description = "List only the ops no spec covers (the totals stay the same).")
    boolean uncoveredOnly;

    /** One op with a backward, how many specs name it, and how many of those are expected to pass. */
    record Row(OpInfo op, int specs, int passing) {}

    CoverageCommand(Workspace workspace) {
        super(workspace);
    }

    /** The specs under the paths; a path not found ends the command (a partial count would mislead). */
    @Override
    SpecBatch configure(Start start) {
        SpecBatch batch = start.specs(paths);
        return batch.pathProblems().isEmpty() ? batch : null;
    }

    @Override
    int execute(SpecBatch batch, Start start) throws IOException {
        Console console = start.console();
        List<Row> rows = count(batch, OpCatalog.nd4j(), console);
        PrintWriter out = console.out();
        if (json) {
            writeJson(rows, out);
        } else {
            writeTable(rows, out);
        }
        out.flush();
        return ExitCode.OK.code();
    }

    /**
     * Every op of the catalog with a backward, and how many valid specs name it; a spec naming an op the catalog
     * does not have is said on stderr and not counted, and so are invalid specs, in one line.
     */
    private static List<Row> count(SpecBatch batch, OpCatalog catalog, Console console) {
        Map<String, Integer> specsPerOp = new TreeMap<>();
        Map<String, Integer> passingPerOp = new TreeMap<>();
        long invalid = 0;
        for (LoadedSpec loaded : batch.specs()) {
            if (!loaded.isValid()) {
                invalid++;
                continue;
            }
            List<Located<String>> unknown = unknownOps(loaded.spec(), catalog);
            if (!unknown.isEmpty()) {
                // validate cannot know ND4J's op names (spec/ has no ND4J), so this is where a typo surfaces
                unknown.forEach(op -> console.err().println(op.pos() + ": unknown op '" + op.value() + "'"
                        + Suggestions.closest(op.value(), catalog.checkableNames()).map(c -> " (did you mean '" + c
                        + "'?)").orElse("") + "; spec '" + loaded.name() + "' not counted"));
                continue;
            }
            boolean passing = loaded.spec().expect().kind() == Expectation.Kind.PASS;
            for (String op : opsOf(loaded.spec())) {
                specsPerOp.merge(op, 1, Integer::sum);
                if (passing) {
                    passingPerOp.merge(op, 1, Integer::sum);
                }
            }
        }
        if (invalid > 0) {
            console.err().println("gradcheck: " + invalid + " invalid spec(s) not counted ('gradcheck validate' lists"
                    + " them)");
        }
        return catalog.withBackward().stream()
                .map(o -> new Row(o, specsPerOp.getOrDefault(o.name(), 0), passingPerOp.getOrDefault(o.name(), 0)))
                .toList();
    }

    @Override
    public Map<String, String> exitCodeHelp() {
        return ExitCode.successOrUsage("usage error, a path was not found, or output not written in full");
    }

    private static long covered(List<Row> rows) {
        return rows.stream().filter(r -> r.specs() > 0).count();
    }

    /** Ops with at least one spec expected to pass: their backward is shown right, not only known to be wrong. */
    private static long verified(List<Row> rows) {
        return rows.stream().filter(r -> r.passing() > 0).count();
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
        out.printf("%-" + width + "s  %-9s  %5s  %7s  %s%n", "OP", "BACKWARD", "SPECS", "PASSING", "NOTE");
        for (Row r : rows) {
            if (!uncoveredOnly || r.specs() == 0) {
                String line = String.format("%-" + width + "s  %-9s  %5d  %7d  %s", r.op().name(), backward(r.op()),
                        r.specs(), r.passing(),
                        r.op().checkable() ? "" : "registry only: no SameDiff class, a spec cannot name it");
                out.println(line.stripTrailing());
            }
        }
        long covered = covered(rows);
        List<Row> nameable = nameable(rows);
        out.println(rows.size() + " ops with a backward: " + covered + " covered by specs ("
                + percent(covered, rows.size()) + "%), " + verified(rows) + " verified by a passing spec, "
                + (rows.size() - covered) + " not covered; of the "
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
            g.writeNumberField("verified", verified(rows));
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
                g.writeNumberField("passing", r.passing());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        out.println();
    }

    /** The ops a spec exercises: its op, or each distinct op among a graph spec's nodes. */
    private static Set<String> opsOf(OpSpec spec) {
        Set<String> ops = new TreeSet<>();
        namedOps(spec).forEach(op -> ops.add(op.value()));
        return ops;
    }

    /** Every op name the spec writes, where it writes it: its op, or each graph node's. */
    private static List<Located<String>> namedOps(OpSpec spec) {
        if (spec.graph() == null) {
            return List.of(spec.op());
        }
        List<Located<String>> ops = new ArrayList<>();
        spec.graph().nodes().forEach(n -> ops.add(n.op()));
        return ops;
    }

    /** The op names no ND4J op (registry or SameDiff class) answers to. */
    private static List<Located<String>> unknownOps(OpSpec spec, OpCatalog catalog) {
        return namedOps(spec).stream().filter(op -> catalog.find(op.value()).isEmpty()).toList();
    }
}
