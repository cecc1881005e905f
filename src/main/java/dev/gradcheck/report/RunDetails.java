package dev.gradcheck.report;

import dev.gradcheck.result.CheckResult;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * What a report says about the run beside its checks: when and where it ran, which shard it was, whether
 * fail-fast cut it short, and, for a report merged from several ({@code gradcheck merge}), the reports it came
 * from. Each check's {@link CheckOrigin} (its spec id and shard) comes from {@code origins}.
 *
 * @param startedAt    when the run started, with the machine's offset; null when not known
 * @param hostname     the machine it ran on; null when not known
 * @param shard        {@code --shard} of the run ({@code "2/3"}), or null
 * @param notRun       checks planned that never ran (fail-fast stopped the run first)
 * @param stoppedEarly fail-fast stopped the run
 * @param origins      each check's id and shard
 * @param sources      the reports a merged report was made of, in the order given; empty otherwise
 */
public record RunDetails(OffsetDateTime startedAt, String hostname, String shard, int notRun, boolean stoppedEarly,
                         Origins origins, List<Source> sources) {

    /** Nothing known beyond the results (tests, the library). */
    public static final RunDetails NONE = new RunDetails(null, null, null, 0, false, r -> CheckOrigin.UNKNOWN,
            List.of());

    public RunDetails {
        origins = origins == null ? r -> CheckOrigin.UNKNOWN : origins;
        sources = sources == null ? List.of() : List.copyOf(sources);
    }

    /**
     * Where a check came from.
     *
     * @param id             the spec's id ({@code spec.SpecIds}: project-relative file {@code ::} name), or null
     * @param shard          the shard that ran it ({@code "2/3"}), or null
     * @param repositoryFile the spec file relative to the repository's root ({@code $GITHUB_WORKSPACE}, else the
     *                       git work tree's), where CI places annotations on a diff; null when not known (then
     *                       the file of the id is used)
     */
    public record CheckOrigin(String id, String shard, String repositoryFile) {
        public static final CheckOrigin UNKNOWN = new CheckOrigin(null, null);

        public CheckOrigin(String id, String shard) {
            this(id, shard, null);
        }
    }

    /** Each check's origin. */
    @FunctionalInterface
    public interface Origins {
        CheckOrigin of(CheckResult result);
    }

    /**
     * One report a merged report was made of.
     *
     * @param file      the report file as given to {@code merge}
     * @param shard     its shard, or null
     * @param startedAt when its run started, or null
     * @param hostname  where it ran, or null
     * @param checks    how many checks it holds
     * @param exitCode  its {@code summary.exit_code}
     * @param seconds   its run's wall time
     */
    public record Source(String file, String shard, OffsetDateTime startedAt, String hostname, int checks,
                         int exitCode, double seconds) {}
}
