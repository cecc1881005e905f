package dev.gradcheck.cli;

import dev.gradcheck.bench.Bench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gradcheck bench}: what a check costs, against the bare kernel. */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Benchmarks a few ops and sizes: the time of a full check, one finite-difference"
            + " evaluation, one backward row, and a bare Nd4j.exec of the same op. Takes about a minute."})
final class BenchCommand implements Callable<Integer> {

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "5",
            description = "Full checks timed per case; the median is shown (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() throws Exception {
        new Bench(Math.max(1, repeat), command.commandLine().getOut()).run();
        return ExitCode.OK.code();
    }
}
