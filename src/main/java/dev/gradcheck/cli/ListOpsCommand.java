package dev.gradcheck.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.PluginOptions;
import dev.gradcheck.op.catalog.LayerTypes;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.cli.options.Workspace;
import dev.gradcheck.cli.term.Console;
import dev.gradcheck.cli.term.Terminal;
import dev.gradcheck.op.catalog.ArgInfo;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.catalog.OpInfo;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.run.Glob;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gradcheck list-ops}: the operators a spec can name. */
@Command(name = "list-ops", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Lists the ND4J operators: whether a spec can name them (they have a SameDiff class to build"
            + " and differentiate), whether ND4J has a native backward kernel (NAME_bp), and the named arguments"
            + " a spec's attrs can set (from ND4J's op descriptors).",
            "Registry-only ops (no SameDiff class) are listed with --all; plugin ops (--plugin) are listed with"
                + " their source."})
final class ListOpsCommand extends AbstractCommand<ListOpsCommand.Work> {

    @Parameters(arity = "0..1", paramLabel = "GLOB", completionCandidates = OpNames.class,
            description = "Only ops whose name matches this glob (*, ?,"
            + " [abc], {a,b}); one op's exact name shows that op in full: its inputs in order and its attributes.")
    String pattern;

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Option(names = "--all", description = "Include registry-only ops that specs cannot name.")
    boolean all;

    @Option(names = "--layers", description = "List the Deeplearning4j layers a spec's layer: names instead"
            + " (docs/dl4j.md): their input layout and the parameters checked; then the graph vertices it checks"
            + " alone.")
    boolean layers;

    @Mixin
    PluginOptions pluginOptions;

    private final Terminal terminal;

    /**
     * What to list.
     *
     * @param glob    the names to list, or null for every one
     * @param plugins plugin ops, listed with the catalog's
     */
    record Work(Glob glob, PluginSet plugins) {}

    /** @param terminal how wide the table may be (ATTRIBUTES wraps to fit a terminal) */
    ListOpsCommand(Workspace workspace, Terminal terminal) {
        super(workspace);
        this.terminal = terminal;
    }

    @Override
    Work configure(Start start) {
        Glob glob;
        try {
            glob = pattern == null ? null : Glob.of(pattern);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(command.commandLine(), e.getMessage());
        }
        PluginSet plugins = start.plugins(pluginOptions);
        return plugins == null ? null : new Work(glob, plugins);
    }

    @Override
    int execute(Work work, Start start) throws IOException {
        if (layers) {
            writeLayers(start.console().out(), work.glob());
            return ExitCode.OK.code();
        }
        List<OpInfo> known = new ArrayList<>(OpCatalog.nd4j().all());
        known.addAll(work.plugins().describe());
        known.sort(Comparator.comparing(OpInfo::name));
        List<OpInfo> ops = known.stream()
                .filter(o -> all || o.checkable())
                .filter(o -> work.glob() == null || work.glob().matches(o.name()))
                .toList();
        PrintWriter out = start.console().out();
        if (!json && ops.size() == 1 && ops.get(0).name().equals(pattern)) {
            OpDetails.write(ops.get(0), out);
        } else if (json) {
            writeJson(ops, out);
        } else {
            writeTable(ops, out, terminal.tableColumns());
        }
        out.flush();
        if (ops.isEmpty() && pattern != null) {
            start.console().err().println("gradcheck: no op matches '" + pattern + "'" + suggestion(known));
        }
        return ExitCode.OK.code();
    }

    /**
     * A glob taking the names that hold what was typed ({@code norm}: '*norm*'), else " (did you mean 'layer_norm'?)"
     * for a typo or a missing '_'.
     */
    private String suggestion(List<OpInfo> known) {
        List<String> names = known.stream().filter(o -> all || o.checkable()).map(OpInfo::name).toList();
        String part = pattern.replaceAll("[*?\\[\\]{}]", "");
        long holding = part.isEmpty() ? 0 : names.stream().filter(n -> n.contains(part)).count();
        if (holding > 0) {
            return "; '*" + part + "*' lists the " + holding + " whose name holds '" + part + "'";
        }
        return dev.gradcheck.spec.Suggestions.closest(pattern, names).map(n -> " (did you mean '" + n + "'?)")
                .orElse("");
    }

    @Override
    public Map<String, String> exitCodeHelp() {
        return ExitCode.successOrUsage("usage error, a plugin that cannot load, or output not written in full");
    }

    /** @param columns the terminal's width, to which ATTRIBUTES wraps under itself; 0 for no limit */
    private static void writeTable(List<OpInfo> ops, PrintWriter out, int columns) {
        int width = Math.max(4, ops.stream().mapToInt(o -> o.name().length()).max().orElse(0));
        String row = "%-" + width + "s  %-9s  %-5s  %s%n";
        out.printf(row, "NAME", "BP KERNEL", "SPEC", "ATTRIBUTES");
        String hanging = " ".repeat(width + 20);
        for (OpInfo o : ops) {
            List<String> attributes = wrap(attributes(o), columns - hanging.length());
            out.printf(row, o.name(), o.bpKernel() ? "yes" : "-", o.checkable() ? "yes" : "no", attributes.get(0));
            attributes.stream().skip(1).forEach(more -> out.println(hanging + more));
        }
        long bp = ops.stream().filter(OpInfo::bpKernel).count();
        out.println(ops.size() + " ops, " + bp + " with a native backward kernel");
        ops.stream().filter(o -> !o.source().equals("nd4j"))
                .forEach(o -> out.println(o.name() + ": " + o.source()));
    }

    /** The layer types, as a table or JSON: what a layer spec's {@code type} can name without a full class name. */
    private void writeLayers(PrintWriter out, Glob glob) throws IOException {
        List<LayerTypes> types = LayerTypes.all().stream()
                .filter(t -> glob == null || glob.matches(t.name())).toList();
        if (json) {
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(out, types);
            out.println();
        } else {
            int width = Math.max(4, types.stream().mapToInt(t -> t.name().length()).max().orElse(0));
            String row = "%-" + width + "s  %-16s  %s%n";
            out.printf(row, "TYPE", "PARAMS", "INPUT: WHAT IT IS");
            types.forEach(t -> out.printf(row, t.name(), t.params().isEmpty() ? "-" : String.join(", ",
                    t.params()), t.input() + ": " + t.summary()));
            long vertices = types.stream().filter(LayerTypes::isVertex).count();
            out.println((types.size() - vertices) + " DL4J layer types and " + vertices + " graph vertices; any other"
                    + " DL4J layer by its full class name, and your own layer too (its jar with --plugin;"
                    + " docs/dl4j.md)");
        }
        out.flush();
    }

    /** The list broken after its commas into lines of at most {@code room} (at least one line; room < 20: one). */
    static List<String> wrap(String list, int room) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String item : list.split(", ")) {
            String next = line.isEmpty() ? item : line + ", " + item;
            if (room >= 20 && !line.isEmpty() && next.length() + 1 > room) {
                lines.add(line + ",");
                line = new StringBuilder(item);
            } else {
                line = new StringBuilder(next);
            }
        }
        lines.add(line.toString());
        return lines;
    }

    private static String attributes(OpInfo o) {
        return String.join(", ", o.args().stream().filter(a -> a.kind() != ArgInfo.Kind.INPUT)
                .map(a -> a.kind().label() + " " + a.name()).toList());
    }

    private static void writeJson(List<OpInfo> ops, PrintWriter out) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        try (JsonGenerator g = mapper.getFactory().createGenerator(out)) {
            g.setPrettyPrinter(new DefaultPrettyPrinter());
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            g.writeStartArray();
            for (OpInfo o : ops) {
                g.writeStartObject();
                g.writeStringField("name", o.name());
                g.writeStringField("source", o.source());
                g.writeStringField("class", o.javaClass());
                g.writeBooleanField("checkable", o.checkable());
                g.writeBooleanField("bp_kernel", o.bpKernel());
                OpCatalog.writeArgs(g, "args", o.args()); // as the op catalog holds them
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        out.println();
    }
}
