package dev.gradcheck.cli;

import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.cli.options.ExitCodeHelp;
import dev.gradcheck.cli.options.VersionProvider;
import dev.gradcheck.spec.Suggestions;
import java.io.PrintWriter;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code gradcheck docs [TOPIC]}: one of gradcheck's documents, printed from the jar, so that help's pointers to
 * docs/ work where no source tree is (an unpacked archive, a jar on a class path). Without a topic, the list.
 */
@Command(name = "docs", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Prints one of gradcheck's documents (Markdown), e.g. `gradcheck docs spec-format`; without"
            + " TOPIC, lists them. They come with gradcheck, so this works wherever it is installed."})
final class DocsCommand implements Callable<Integer>, ExitCodeHelp {

    static final String ROOT = "dev/gradcheck/docs/";

    @Parameters(arity = "0..1", paramLabel = "TOPIC", completionCandidates = Topics.class,
            description = "A document's name without .md (case does not matter): ${COMPLETION-CANDIDATES}.")
    String topic;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() {
        PrintWriter out = command.commandLine().getOut();
        List<String> topics = topics();
        if (topic == null) {
            topics.forEach(out::println);
            out.flush();
            return topics.isEmpty() ? ExitCode.USAGE.code() : ExitCode.OK.code();
        }
        Optional<String> found = topics.stream().filter(t -> t.equalsIgnoreCase(topic.replaceAll("\\.md$", "")))
                .findFirst();
        String text = found.map(t -> BundledFiles.read(file(t))).orElse(null);
        if (text == null) {
            command.commandLine().getErr().println("gradcheck: docs: no document '"
                    + dev.gradcheck.report.SafeText.forTerminal(topic) + "'" + Suggestions.closest(topic, topics)
                    .map(t -> " (did you mean '" + t + "'?)").orElse("") + "; the documents: "
                    + String.join(", ", topics));
            return ExitCode.USAGE.code();
        }
        out.print(text);
        out.flush();
        return ExitCode.OK.code();
    }

    /** The documents' names, lower case, without .md. */
    static List<String> topics() {
        return BundledFiles.list(ROOT).stream().filter(n -> n.endsWith(".md"))
                .map(n -> n.substring(ROOT.length(), n.length() - 3).toLowerCase(Locale.ROOT)).sorted().toList();
    }

    private static String file(String topic) {
        return BundledFiles.list(ROOT).stream().filter(n -> n.substring(ROOT.length()).equalsIgnoreCase(topic + ".md"))
                .findFirst().orElse(ROOT + topic + ".md");
    }

    static final class Topics implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return topics().iterator();
        }
    }

    @Override
    public Map<String, String> exitCodeHelp() {
        return ExitCode.successOrUsage("usage error: no document of that name");
    }
}
