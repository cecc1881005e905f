package dev.gradcheck.cli;

import dev.gradcheck.bench.Bench;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.ExitCodeHelp;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.spec.Suggestions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code gradcheck bench}: what a check costs, per executor, against the bare kernel. */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Benchmarks the six cases of bench/compare (tanh 100, 1000, 4000; matmul 30x40 . 40x50;"
            + " conv2d; softmax 16x32), float64: one forward, one VJP, a bare Nd4j.exec of the op, and whole checks"
            + " in full and fast mode, for the direct executor and SameDiff's session. Takes a few minutes.",
            "",
            "bench/compare runs the same cases beside PyTorch's gradcheck and prints the ratios."})
final class BenchCommand implements Callable<Integer>, ExitCodeHelp {

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "5",
            description = "Whole checks timed per case and mode; the median is shown (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--executor", paramLabel = "EXECUTOR", defaultValue = "both",
            converter = ExecutorConverter.class, completionCandidates = ExecutorNames.class,
            description = "direct (compiled ND4J calls, what check uses), samediff (SameDiff's session for every"
                + " call) or both (default: ${DEFAULT-VALUE}).")
    String executor;

    @Option(names = "--serve", description = "Read JSON requests from stdin, one per line, and answer each on"
            + " stdout (bench/compare drives it): {\"cmd\": \"cases\"} (or with \"set\": \"scaling\"),"
            + " {\"cmd\": \"check\", \"case\": ID,"
            + " \"mode\": \"full\"|\"fast\", \"executor\": \"direct\"|\"samediff\", and optionally \"compress\":"
            + " false, \"threads\": N, \"cache\": false (build the function afresh)}, {\"cmd\": \"costs\", \"case\":"
            + " ID, \"executor\": ...}, {\"cmd\": \"quit\"}.")
    boolean serve;

    @Option(names = "--scaling", description = "How a full check's cost grows with the input size N and the output"
            + " size M (tanh up to 4000, softmax rows, square matmuls up to 64x64): evaluations and seconds,"
            + " compressed and dense.")
    boolean scaling;

    @Spec
    CommandSpec command;

    /** --executor's values, for completion and for "did you mean". */
    static final class ExecutorNames implements Iterable<String> {
        static final List<String> NAMES = List.of("direct", "samediff", "both");

        @Override
        public Iterator<String> iterator() {
            return NAMES.iterator();
        }
    }

    /** A known executor name, in lower case; anything else is a usage error that names the close one. */
    static final class ExecutorConverter implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String name = value.strip().toLowerCase(Locale.ROOT);
            if (!ExecutorNames.NAMES.contains(name)) {
                throw new CommandLine.TypeConversionException("unknown executor '" + value + "'"
                        + Suggestions.choices(value, ExecutorNames.NAMES));
            }
            return name;
        }
    }

    @Override
    public Integer call() throws Exception {
        Bench bench = new Bench(Math.max(1, repeat), command.commandLine().getOut());
        if (serve) {
            bench.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
            return ExitCode.OK.code();
        }
        if (scaling) {
            bench.scaling();
            return ExitCode.OK.code();
        }
        try {
            bench.run(Bench.executors(executor));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
        return ExitCode.OK.code();
    }

    @Override
    public Map<String, String> exitCodeHelp() {
        return ExitCode.successOrUsage("usage error, or output that could not be written in full");
    }
}
