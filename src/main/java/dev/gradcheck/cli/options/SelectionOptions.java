package dev.gradcheck.cli.options;

import dev.gradcheck.run.Durations;
import dev.gradcheck.run.Glob;
import dev.gradcheck.run.RunCache;
import dev.gradcheck.run.SelectionHints;
import dev.gradcheck.run.Shard;
import dev.gradcheck.run.SpecSelection;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecIds;
import dev.gradcheck.spec.TagExpression;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine;

/**
 * Which of the specs found a {@code check} runs, and in what order: --only, --skip and --tag narrow the specs
 * found; --shard takes one part of what is left; --last-failed or --failed-first use the cache of the last runs.
 * Documented in docs/ci.md.
 */
public final class SelectionOptions {

    public static final String CACHE_ENV = "GRADCHECK_CACHE_DIR";

    @Option(names = "--only", paramLabel = "GLOB",
            description = "Check only specs whose name, or whose file's path (as given, or relative to the project"
                    + " root), matches GLOB; repeatable. Globs as java.nio reads them: * and ? stay within one path"
                    + " segment, ** crosses segments, [abc] and {a,b} as in a shell: 'softmax*', 'specs/conv/*',"
                    + " 'specs/**/lstm*.yaml'.")
    List<String> only = new ArrayList<>();

    @Option(names = "--skip", paramLabel = "GLOB",
            description = "Leave out specs whose name or file path matches GLOB (after --only); repeatable.")
    List<String> skip = new ArrayList<>();

    @Option(names = "--tag", paramLabel = "EXPR",
            description = "Check only specs whose tags: satisfy EXPR: tag names joined by and, or, not and"
                    + " parentheses, e.g. 'slow and not cuda'.")
    String tag;

    @Option(names = {"-k", "--keyword"}, paramLabel = "EXPR",
            description = "Check only specs that EXPR selects, as pytest's -k: each word holds for a spec whose name,"
                    + " op or file contains it (ignoring case); words joined by and, or, not and parentheses, e.g."
                    + " -k 'cumprod and not axis0'.")
    String keyword;

    @Option(names = "--shard", paramLabel = "K/N", converter = ShardConverter.class,
            description = "Check the K-th of N disjoint parts of the selection (for N CI jobs; then `gradcheck merge`"
                    + " their JSON reports). Parts are drawn from each spec's path and name, the same on every"
                    + " machine; see --shard-durations.")
    Shard shard;

    @Option(names = "--shard-durations", paramLabel = "FILE",
            description = "Balance --shard's parts by the times in FILE (a durations file, as the cache and `merge"
                    + " --write-durations` write, or a JSON report) instead of by hash; every job must read the same"
                    + " file, e.g. a committed one.")
    Path shardDurations;

    @Option(names = {"--last-failed", "--lf"},
            description = "Check only the specs that needed attention in the last run (from the cache); all of the"
                    + " selection when none did.")
    boolean lastFailed;

    @Option(names = {"--failed-first", "--ff"},
            description = "Check the specs that needed attention in the last run first, then the others.")
    boolean failedFirst;

    @Option(names = "--cache-dir", paramLabel = "DIR",
            description = "Where the last runs' failures and durations are kept (default: $" + CACHE_ENV
                    + ", else the project file's cache-dir, else " + RunCache.DEFAULT_DIR + " at the project root).")
    Path cacheDir;

    /**
     * What the selection leaves.
     *
     * @param specs   the specs to check, in run order
     * @param shard   the shard taken, or null
     * @param empty   why there is nothing to check, for the exit policy's message; null when that is fine (an empty
     *                shard of a non-empty selection) or when there is something
     */
    public record Selected(List<LoadedSpec> specs, Shard shard, String empty) {}

    /**
     * The cache this run reads and writes: --cache-dir on the command line, else $GRADCHECK_CACHE_DIR, else the
     * project file's cache-dir, else .gradcheck_cache at the project root.
     */
    public RunCache cache(CommandSpec command, Project project, PrintWriter err) {
        String env = project.workspace().env().apply(CACHE_ENV);
        CommandLine.ParseResult parsed = command.commandLine().getParseResult();
        boolean typed = parsed != null && parsed.hasMatchedOption("--cache-dir");
        Path dir = typed ? cacheDir
                : env != null && !env.isBlank() ? Path.of(env)
                : cacheDir != null ? cacheDir
                : project.root().resolve(RunCache.DEFAULT_DIR);
        return new RunCache(dir, message -> err.println("gradcheck: warning: " + message));
    }

    /** @throws ParameterException for a glob or tag expression that does not parse, or an unreadable durations file */
    public Selected select(CommandSpec command, List<LoadedSpec> found, Project project, RunCache cache, PrintWriter err) {
        if (lastFailed && failedFirst) {
            throw new ParameterException(command.commandLine(), "--last-failed and --failed-first do not go together:"
                    + " --last-failed checks only the failures, --failed-first checks them first, then the rest");
        }
        SpecIds ids = project.ids();
        TagExpression tags = tags(command);
        if (tags != null) {
            Set<String> carried = new java.util.HashSet<>();
            found.forEach(s -> carried.addAll(s.tags()));
            tags.tags().stream().filter(t -> !carried.contains(t)).forEach(t ->
                    err.println("gradcheck: warning: --tag names '" + t + "', which no spec found carries"));
        }
        SpecSelection selection = new SpecSelection(globs(command, "--only", only), globs(command, "--skip", skip),
                tags, expression(command, "-k", keyword, true));
        List<LoadedSpec> selected = selection.apply(found, ids);
        String empty = selected.isEmpty() ? description() + hints(selection, found, ids) : null;
        if (shard != null) {
            int before = selected.size();
            selected = shard.select(selected, ids, durations(command));
            if (selected.isEmpty() && before > 0) {
                err.println("gradcheck: shard " + shard + " holds none of the " + before + " selected specs");
            }
        }
        if (lastFailed || failedFirst) {
            selected = byLastFailures(selected, ids, cache, err);
        }
        return new Selected(selected, shard, empty);
    }

    private List<LoadedSpec> byLastFailures(List<LoadedSpec> specs, SpecIds ids, RunCache cache, PrintWriter err) {
        Set<String> failed = cache.lastFailed().keySet();
        List<LoadedSpec> first = specs.stream().filter(s -> failed.contains(ids.of(s))).toList();
        if (lastFailed) {
            if (first.isEmpty()) {
                err.println("gradcheck: --last-failed: no spec among the " + specs.size() + " selected needed attention"
                        + " in the last run (" + cache.dir() + "); checking them all");
                return specs;
            }
            return first;
        }
        return Stream.concat(first.stream(), specs.stream().filter(s -> !first.contains(s))).toList();
    }

    private Map<String, Double> durations(CommandSpec command) {
        if (shardDurations == null) {
            return Map.of();
        }
        try {
            return Durations.read(shardDurations);
        } catch (IOException e) {
            throw new ParameterException(command.commandLine(), "--shard-durations: " + e.getMessage());
        }
    }

    private TagExpression tags(CommandSpec command) {
        return expression(command, "--tag", tag, false);
    }

    private static TagExpression expression(CommandSpec command, String option, String text, boolean keywords) {
        if (text == null) {
            return null;
        }
        try {
            return keywords ? TagExpression.parseKeywords(text) : TagExpression.parse(text);
        } catch (TagExpression.SyntaxException e) {
            throw new ParameterException(command.commandLine(), option + ": column " + e.column() + ": "
                    + e.getMessage() + "\n  " + text + "\n  " + " ".repeat(e.column() - 1) + "^");
        }
    }

    /** The selection's did-you-mean lines, each on a line of its own after the "no specs found" line. */
    private static String hints(SpecSelection selection, List<LoadedSpec> found, SpecIds ids) {
        return SelectionHints.of(selection, found, ids).stream().map(h -> "\n  " + h)
                .collect(java.util.stream.Collectors.joining());
    }

    private static List<Glob> globs(CommandSpec command, String option, List<String> patterns) {
        List<Glob> globs = new ArrayList<>();
        for (String p : patterns) {
            try {
                globs.add(Glob.of(p));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(command.commandLine(), option + ": " + e.getMessage());
            }
        }
        return globs;
    }

    /** " matching --only [..] outside --skip [..] with --tag '...'": what narrowed a selection to nothing. */
    String description() {
        return (only.isEmpty() ? "" : " matching --only " + only) + (skip.isEmpty() ? "" : " outside --skip " + skip)
                + (tag == null ? "" : " with --tag '" + tag + "'") + (keyword == null ? "" : " with -k '" + keyword + "'");
    }

    static final class ShardConverter implements CommandLine.ITypeConverter<Shard> {
        @Override
        public Shard convert(String value) {
            try {
                return Shard.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
